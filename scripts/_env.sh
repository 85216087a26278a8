# Shared by scripts/grill and scripts/test: make sure .venv exists and holds this project.
# Re-installs when pyproject.toml changes, so a pull that adds a dependency just works.
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_venv="$_root/.venv"
_python="${PYTHON:-python3}"

grill_env() {  # $1: extras ("" or "test")
    local extras="$1" stamp="$_venv/.grill-installed${1:+-$1}"
    if [ ! -x "$_venv/bin/python" ]; then
        echo "grill: creating $_venv (first run only)..." >&2
        "$_python" -m venv "$_venv" || { echo "grill: could not create a virtual environment; on Debian: apt-get install python3-venv" >&2; exit 1; }
    fi
    # the stamp names the checkout it installed: a .venv shared with another worktree (a symlink)
    # imports that worktree's source until it is installed from this one again
    if [ ! -f "$stamp" ] || [ "$_root/pyproject.toml" -nt "$stamp" ] \
        || [ "$(cat "$stamp" 2>/dev/null)" != "$_root" ]; then
        echo "grill: installing grill${extras:+ with [$extras]} into .venv..." >&2
        # pip's own chatter goes to a log, shown only when the install fails
        "$_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            -e "$_root${extras:+[$extras]}" >"$_venv/pip-install.log" 2>&1 \
            || { tail -n 30 "$_venv/pip-install.log" >&2; echo "grill: pip install failed (log: $_venv/pip-install.log)" >&2; exit 1; }
        echo "$_root" >"$stamp"
    fi
}
