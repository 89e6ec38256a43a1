# Sourced by scripts/test and scripts/serve: make .venv on a fresh machine that has only
# python3 and pip, and install the project into it from the lock (uv.lock), so that a
# release elsewhere changes nothing here. Debian ships venv's ensurepip apart
# (python3-venv), so without it virtualenv makes .venv.

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

# uv, at the version and hashes requirements/uv.txt pins, installs the lock.
install_uv() {
    local want
    want="$(sed -n 's/^uv==\([^ ]*\).*/\1/p' requirements/uv.txt)"
    if [ -x "$VENV/bin/uv" ] && [ "$("$VENV/bin/uv" --version | cut -d' ' -f2)" = "$want" ]; then
        return
    fi
    echo "==> installing uv $want into $VENV"
    "$VENV/bin/python" -m pip install --quiet --require-hashes -r requirements/uv.txt
}

# install_project [EXTRA]: the project (editable) and exactly the versions uv.lock pins,
# with EXTRA's too (dev: the checks and tests). --locked refuses a lock that pyproject.toml
# no longer matches rather than resolving anew; --inexact keeps uv itself in the venv.
install_project() {
    install_uv
    if [ ! -x "$VENV/bin/pocha" ]; then
        # Minutes of silence otherwise: the dependencies, and Cython compiling the engine.
        echo "==> installing Pocha into $VENV from uv.lock (the first time compiles the" \
             "engine: a few minutes)"
    fi
    UV_PROJECT_ENVIRONMENT="$VENV" "$VENV/bin/uv" sync --quiet --locked --inexact \
        --python "$VENV/bin/python" ${1:+--extra "$1"}
}
