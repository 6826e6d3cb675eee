#!/bin/sh
# Make sure Debian's chromium is at /usr/bin/chromium for the browser test (tests/test_browser.py,
# Playwright with executable_path). Installs it with apt when missing, apt is there and we are
# root; otherwise says so and lets the browser test skip with that reason. Never fails the build.
set -u

if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "browser: installing Debian's chromium for the browser test"
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq && apt-get install -y -qq chromium >/dev/null; then
        echo "browser: chromium installed"
        exit 0
    fi
    echo "browser: could not install chromium; the browser test will be skipped" >&2
    exit 0
fi
echo "browser: /usr/bin/chromium is missing (Debian: apt install chromium);" \
     "the browser test will be skipped" >&2
exit 0
