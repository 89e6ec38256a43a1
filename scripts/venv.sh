# Sourced by scripts/test and scripts/serve: make .venv on a fresh machine that has only
# python3 and pip, and install the project into it (again only when pyproject.toml changed).
# Debian ships venv's ensurepip apart (python3-venv), so without it virtualenv makes .venv.

PYTHON="${PYTHON:-python3}"
VENV=.venv

make_venv() {
    if [ -x "$VENV/bin/python" ]; then
        return
    fi
    echo "==> creating $VENV"
    if ! "$PYTHON" -m venv "$VENV" 2>/dev/null || [ ! -x "$VENV/bin/pip" ]; then
        rm -rf "$VENV"
        # PEP 668 (Debian 12+) refuses --user installs unless told otherwise; older pips
        # neither enforce it nor know the flag, hence the plain attempt first.
        "$PYTHON" -m pip install --quiet --user virtualenv \
            || "$PYTHON" -m pip install --quiet --user --break-system-packages virtualenv
        "$PYTHON" -m virtualenv "$VENV"
    fi
}

# install_project EXTRA: `pip install -e .[EXTRA]` (or `.` for none) unless done already
# for this pyproject.toml; a dev install serves for a plain one.
install_project() {
    local target=".${1:+[$1]}" want have
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    for stamp in "$VENV/.pocha-installed" "$VENV/.pocha-installed-${1:-plain}"; do
        have="$(cat "$stamp" 2>/dev/null || true)"
        if [ "$want" = "$have" ]; then
            return
        fi
    done
    echo "==> installing pocha${1:+[$1]} into $VENV"
    "$VENV/bin/python" -m pip install --quiet -e "$target"
    if [ "${1:-}" = dev ]; then
        echo "$want" >"$VENV/.pocha-installed"
    else
        echo "$want" >"$VENV/.pocha-installed-${1:-plain}"
    fi
}
