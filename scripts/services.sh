#!/bin/sh
# Make sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer; start them when they
# are installed but down; otherwise say what to install. Used by `make test` and `.ci/run`.
set -u

up() { # host port
    python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.socket()
s.settimeout(1)
try:
    s.connect((sys.argv[1], int(sys.argv[2])))
except OSError:
    sys.exit(1)
PY
}

wait_up() { # name host port
    i=0
    while ! up "$2" "$3"; do
        i=$((i + 1))
        if [ "$i" -gt 30 ]; then
            echo "services: $1 did not come up on $2:$3" >&2
            return 1
        fi
        sleep 1
    done
}

if ! up 127.0.0.1 5432; then
    if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
        echo "services: starting PostgreSQL"
        pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
        wait_up PostgreSQL 127.0.0.1 5432 || exit 1
    else
        echo "services: PostgreSQL is not running on 127.0.0.1:5432 and is not installed;" \
             "install it (Debian: apt install postgresql) with trust auth for user postgres" >&2
        exit 1
    fi
fi

if ! up 127.0.0.1 6379; then
    if command -v redis-server >/dev/null 2>&1; then
        echo "services: starting Redis"
        redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
        wait_up Redis 127.0.0.1 6379 || exit 1
    else
        echo "services: Redis is not running on 127.0.0.1:6379 and is not installed;" \
             "install it (Debian: apt install redis-server)" >&2
        exit 1
    fi
fi
echo "services: PostgreSQL and Redis are up"
