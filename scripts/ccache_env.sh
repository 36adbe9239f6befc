# Sourced by scripts/build.sh and scripts/fuzz.sh: compile through ccache
# when it is installed (scripts/setup.sh installs it). Paths under the
# checkout are hashed relative to it (CCACHE_BASEDIR) and the build folder
# is not hashed (CCACHE_NOHASHDIR; only builds with -g would hash it), so a
# second checkout at another path, e.g. CI's clean one, reuses the objects
# the first compiled. (A hit's debug information then names the first
# checkout's folder.) Sets SCRIBE_LAUNCHER to CMake's arguments: empty
# without ccache, and with SCRIBE_CCACHE=0.
SCRIBE_LAUNCHER=()
if [ "${SCRIBE_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
  SCRIBE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
else
  SCRIBE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
fi
