# What the crowdsim check scripts (run_checks.sh, route_checks.sh) share, sourced once they have
# set $crowdsim and $check and moved into their work folder.

fail() {
  echo "FAIL ($check): $*"
  echo "--- stdout:"; cat out.txt 2>/dev/null
  echo "--- stderr:"; cat -v err.txt 2>/dev/null
  exit 1
}

# Runs crowdsim with the given arguments, keeping its output; sets rc.
run() {
  "$crowdsim" "$@" >out.txt 2>err.txt
  rc=$?
}
