# Three scribed replicas on free loopback ports behind nginx
# (docker/nginx/scribe-lb.conf, its ports rewritten to free ones, run as a
# foreground process with its own prefix under $tmp/nginx), for
# replicas_test.sh and failover_test.sh. The sourcing script defines $tmp,
# $SCRIBED, $NGINX and pass/fail/finish, and calls cleanup_replicas on exit
# (which also makes the next start_replicas and start_nginx start afresh).
# Sets pids (the replicas), ports, lb_port, prefix and nginx_pid.
pids=()
ports=()
nginx_pid=""
cleanup_replicas() {
  [ -n "$nginx_pid" ] && kill -TERM "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null
  # SIGCONT: a replica a test froze (SIGSTOP) acts on SIGTERM only then.
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; kill -CONT "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  pids=()
  ports=()
  nginx_pid=""
}

# start_replicas [SCRIBED FLAGS...]: three replicas, each on a free port,
# writing its counters every second to $tmp/replicaN.prom.
start_replicas() {
  local i port
  for i in 1 2 3; do
    "$SCRIBED" --listen 127.0.0.1:0 --metrics-interval-seconds 1 --metrics-file "$tmp/replica$i.prom" "$@" \
      >"$tmp/replica$i.out" 2>"$tmp/replica$i.log" &
    pids+=($!)
  done
  for i in 1 2 3; do
    port=""
    for _ in $(seq 1 100); do
      port="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$tmp/replica$i.out")"
      [ -n "$port" ] && break
      sleep 0.1
    done
    if [ -z "$port" ]; then fail "replica $i starts" "$(cat "$tmp/replica$i.log")"; finish; fi
    ports+=("$port")
  done
  pass "three replicas on 127.0.0.1:${ports[0]}, :${ports[1]}, :${ports[2]}"
}

# free_port: a loopback port nothing listens on (for now).
free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# start_nginx: nginx with docker/nginx/scribe-lb.conf, its ports rewritten
# (the replicas' to ${ports[@]}), listening on $lb_port once this returns,
# with a fresh prefix (its logs empty).
start_nginx() {
  if [ ! -x "$NGINX" ]; then fail "nginx is installed (scripts/setup.sh)"; finish; fi
  lb_port="$(free_port)"
  prefix="$tmp/nginx"
  rm -rf "$prefix"
  mkdir -p "$prefix/temp" "$prefix/logs"
  sed -e "s/127\.0\.0\.1:50061/127.0.0.1:${ports[0]}/" -e "s/127\.0\.0\.1:50062/127.0.0.1:${ports[1]}/" \
      -e "s/127\.0\.0\.1:50063/127.0.0.1:${ports[2]}/" -e "s/listen 127\.0\.0\.1:50051 /listen 127.0.0.1:$lb_port /" \
      -e "s/^worker_processes auto;/worker_processes 2;/" \
      "$ROOT/docker/nginx/scribe-lb.conf" >"$prefix/scribe-lb.conf"
  if ! "$NGINX" -t -q -p "$prefix/" -e stderr -c "$prefix/scribe-lb.conf" 2>"$tmp/nginx-t.log"; then
    fail "nginx -t accepts docker/nginx/scribe-lb.conf" "$(cat "$tmp/nginx-t.log")"; finish
  fi
  pass "nginx -t accepts docker/nginx/scribe-lb.conf"
  "$NGINX" -p "$prefix/" -e stderr -c "$prefix/scribe-lb.conf" 2>"$tmp/nginx.log" &
  nginx_pid=$!
  local up=""
  for _ in $(seq 1 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$lb_port") 2>/dev/null; then up=1; break; fi
    sleep 0.1
  done
  if [ -z "$up" ]; then fail "nginx listens on 127.0.0.1:$lb_port" "$(cat "$tmp/nginx.log")"; finish; fi
}
