"""grill: a terminal drill for ML-engineering interviews on training behaviour."""

__version__ = "0.1.0"
__all__ = ["__version__"]
