#!/bin/bash
# The cluster benchmark (figures, not a test): `parlor loadtest` through one nginx balancing
# round-robin over NODES release nodes on one Postgres, then what the database did per stored
# move: statements (pg_stat_statements), commits (pg_stat_database), WAL bytes (LSN diff).
#
#   deploy/bench-cluster.sh NODES TABLES SECONDS
#
# Needs: a Postgres at PGHOST:PGPORT (default 127.0.0.1:55432) whose role PGUSER (default
# parlor) may create databases, started with shared_preload_libraries=pg_stat_statements;
# nginx (/usr/sbin/nginx); `cargo build --release -p parlor-server` (or PARLOR_BIN). The
# database benchNODES is dropped and made again. Ports 56100 to 56100+NODES are used.
set -u
N=$1; T=$2; S=$3
BIN=${PARLOR_BIN:-target/release/parlor}
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-55432}; PGUSER=${PGUSER:-parlor}
PG="psql -h $PGHOST -p $PGPORT -U $PGUSER"
DB=bench$N
W=$(mktemp -d); mkdir -p "$W/tmp"
$PG -d postgres -qAtc "drop database if exists $DB" -c "create database $DB"
$PG -d $DB -qAtc "create extension pg_stat_statements"
pids=()
up=""
for i in $(seq 1 "$N"); do
  port=$((56100 + i))
  up="$up    server 127.0.0.1:$port;\n"
  "$BIN" serve --addr 127.0.0.1:$port --data "$W/d$i" --store "postgres://$PGUSER@$PGHOST:$PGPORT/$DB" \
    --node-id "n$i" --advertise "http://127.0.0.1:$port" --cluster-secret bench --log warn \
    --tables-per-ip-per-minute 0 --tables-per-ip 0 --max-connections-per-ip 0 --rate-limit 1000 \
    > "$W/n$i.log" 2>&1 &
  pids+=($!)
done
LB=56100
printf "worker_processes 1;\npid $W/nginx.pid;\nerror_log $W/nginx.err warn;\nevents { worker_connections 4096; }\nhttp {\n  access_log off;\n  client_body_temp_path $W/tmp/body; proxy_temp_path $W/tmp/proxy; fastcgi_temp_path $W/tmp/f; uwsgi_temp_path $W/tmp/u; scgi_temp_path $W/tmp/s;\n  map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }\n  upstream parlor {\n$up  }\n  server {\n    listen 127.0.0.1:$LB;\n    location / { proxy_pass http://parlor; proxy_http_version 1.1; proxy_set_header Host \$host; proxy_set_header Upgrade \$http_upgrade; proxy_set_header Connection \$connection_upgrade; proxy_read_timeout 1h; }\n  }\n}\n" > "$W/nginx.conf"
/usr/sbin/nginx -p "$W" -e "$W/nginx.err" -c "$W/nginx.conf" -g 'daemon off; master_process off;' &
ngx=$!
for _ in $(seq 100); do curl -sf http://127.0.0.1:$LB/healthz >/dev/null && break; sleep 0.1; done
sleep 1
$PG -d $DB -qAtc "select pg_stat_statements_reset()" >/dev/null
read -r lsn0 x0 <<< "$($PG -d $DB -At -F' ' -c "select pg_current_wal_lsn(), (select xact_commit from pg_stat_database where datname='$DB')")"
a0=$($PG -d $DB -Atc "select count(*) from actions")
echo "load before: $(cat /proc/loadavg)"
"$BIN" loadtest --url ws://127.0.0.1:$LB --tables "$T" --seconds "$S" 2>&1
echo "load after: $(cat /proc/loadavg)"
read -r bytes x1 <<< "$($PG -d $DB -At -F' ' -c "select pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0'), (select xact_commit from pg_stat_database where datname='$DB')")"
a1=$($PG -d $DB -Atc "select count(*) from actions")
q="from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = '$DB'"
read -r calls exec_ms <<< "$($PG -d $DB -At -F' ' -c "select sum(calls), sum(total_exec_time) $q")"
moves=$((a1 - a0))
echo "nodes $N: stored moves $moves, statements $calls, commits $((x1 - x0)), WAL bytes $bytes, statement time $exec_ms ms"
awk -v m=$moves -v c="$calls" -v x=$((x1 - x0)) -v b="$bytes" -v t="$exec_ms" 'BEGIN{printf "per move: %.2f statements, %.3f commits, %.0f WAL bytes, %.1f us of statement time\n", c/m, x/m, b/m, 1000*t/m}'
$PG -d $DB -At -F' | ' -c "select calls, round(mean_exec_time::numeric, 4) as mean_ms, wal_bytes, left(regexp_replace(query, '\s+', ' ', 'g'), 70) $q order by calls desc limit 8"
kill $ngx "${pids[@]}"; wait
rm -rf "$W"
