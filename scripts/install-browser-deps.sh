#!/usr/bin/env bash
# Installs what the real-browser dashboard test (Tests/Browser/dashboard_test.py) needs on Debian 12:
# Chromium and its WebDriver from Debian, and Selenium from PyPI for the python3 on PATH (the one
# Tests/DashboardTests/BrowserTests.swift runs). Idempotent: installs only what is missing.
#
# Chromium's Recommends (fonts-liberation, libgl1-mesa-dri, upower, udev, notification-daemon,
# system-config-printer) are left out: headless Chromium renders with the DejaVu fonts that fontconfig
# depends on and with its own software GL, and the desktop services are not used. This was checked by
# running the whole browser test with those packages' files hidden.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Selenium release the test was written against.
selenium_version=4.51.0

packages=(chromium chromium-driver dnsmasq-base)
command -v python3 >/dev/null 2>&1 || packages+=(python3)
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
./scripts/apt-install.sh "browser test dependencies" "${packages[@]}"

if ! python3 -c 'import selenium' >/dev/null 2>&1; then
  echo "Installing Selenium $selenium_version from PyPI for $(command -v python3)"
  user=()
  [ "$(id -u)" -eq 0 ] || user=(--user)
  # Debian marks its Python as externally managed (PEP 668); Selenium goes to /usr/local (or ~/.local),
  # beside Debian's packages, which is what this test machine wants.
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --disable-pip-version-check "${user[@]}" \
    "selenium==$selenium_version"
fi

# Fail here, naming the problem, rather than in the middle of the test suite.
python3 -c 'import selenium' || { echo "Selenium is still not importable by $(command -v python3)." >&2; exit 1; }
chromium --version >/dev/null 2>&1 || { echo "chromium does not start: chromium --version failed." >&2; exit 1; }
chromedriver --version >/dev/null || { echo "chromedriver does not start." >&2; exit 1; }
