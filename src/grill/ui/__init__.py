"""Rich rendering and terminal input. Every function takes the Console it draws on.

Nothing here decides anything: the engines below hand over plain data, this package shows it.
"""

__all__: list[str] = []
