# Sourced by ./ono99 and ./test: make sure .venv holds this checkout, installed with the
# extras named in $ONO99_EXTRAS, re-installing only when pyproject.toml has changed. What it
# does, and for how long, goes to stderr: the first run is a minute of pip otherwise silent.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
python=${PYTHON:-python3}
started=$SECONDS
made=""
if [ ! -x "$venv/bin/python" ]; then
  echo "ono99: first run: creating $venv and installing ono99${ONO99_EXTRAS:+ with the $ONO99_EXTRAS extra} into it;" \
    "this takes about a minute (later runs start at once)..." >&2
  "$python" -m venv "$venv"
  made=1
fi
stamp="$venv/.ono99-installed-${ONO99_EXTRAS:-none}"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  if [ -z "$made" ]; then
    echo "ono99: installing ono99${ONO99_EXTRAS:+ with the $ONO99_EXTRAS extra} into $venv" \
      "(new extras or a changed pyproject.toml); this takes up to a minute..." >&2
  fi
  spec="$root"
  [ -n "${ONO99_EXTRAS:-}" ] && spec="$root[$ONO99_EXTRAS]"
  # shellcheck disable=SC2086 # ONO99_PIP_ARGS: more options for pip, word-split on purpose
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ${ONO99_PIP_ARGS:-} -e "$spec" >&2
  touch "$stamp"
  echo "ono99: ready after $((SECONDS - started)) s." >&2
fi
