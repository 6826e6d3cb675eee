#!/bin/sh
# Make sure Debian's chromium is at /usr/bin/chromium for the browser test (tests/browser/test_browser_demo.py,
# Playwright with executable_path), with a Chinese font so that pages in Chinese are measured
# with real glyphs (tests/browser/test_browser_phone.py: a button's text on one line). Installs them with
# apt when missing, apt is there and we are root; otherwise says so and lets the browser test
# skip with that reason. Never fails the build.
set -u

need=""
[ -x /usr/bin/chromium ] || need=" chromium"
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
    need="$need fonts-wqy-zenhei"
fi
if [ -z "$need" ]; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "browser: installing$need for the browser tests"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if apt-get update -qq && apt-get install -y -qq $need >/dev/null; then
        echo "browser: installed$need"
        exit 0
    fi
    echo "browser: could not install$need; browser tests may be skipped" >&2
    exit 0
fi
echo "browser: missing$need (Debian: apt install$need);" \
     "the browser test will be skipped without chromium" >&2
exit 0
