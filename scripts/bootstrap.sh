# Sourced by ./ono99 and ./test: make sure .venv holds this checkout, installed with the
# extras named in $ONO99_EXTRAS, re-installing only when pyproject.toml has changed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv"
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
stamp="$venv/.ono99-installed-${ONO99_EXTRAS:-none}"
if [ ! -f "$stamp" ] || [ "$root/pyproject.toml" -nt "$stamp" ]; then
  spec="$root"
  [ -n "${ONO99_EXTRAS:-}" ] && spec="$root[$ONO99_EXTRAS]"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec" >&2
  touch "$stamp"
fi
