#!/usr/bin/env bash
# Sets up what SenseAct needs to drive a real Android emulator through Appium:
#   1. the Android SDK command-line tools, platform-tools (adb) and the emulator,
#   2. an Android 13 (API 33) system image,
#   3. the AVD AndroidLab's tasks expect: Pixel 7 Pro, API 33, named Pixel_7_Pro_API_33
#      (devices/androidlab.yaml),
#   4. the Appium UiAutomator2 driver, installed into the project-local Appium home
#      (.appium/, gitignored), which scripts/start-appium.ts uses.
# It needs network access once (Google's SDK repository and the npm registry), a JDK 17+
# (`java` on PATH; sdkmanager needs it), curl and unzip. It is idempotent: finished steps
# are skipped on a second run.
#
# Usage:
#   bash scripts/setup-emulator.sh [--appium-only] [--androidworld] [--sdk DIR] [--api 33] [--device pixel_7_pro]
#                                  [--avd Pixel_7_Pro_API_33] [--abi x86_64|arm64-v8a] [--image google_apis]
#
#   --appium-only  only step 4 (for phones, or an SDK you already have)
#   --androidworld the AVD AndroidWorld uses (Pixel 6, API 33, google_apis, named AndroidWorldAvd)
#                  instead of AndroidLab's; then, when an emulator is online (adb devices), its
#                  apps: the APKs from AndroidWorld's public bucket into androidworld-apks/
#                  (gitignored), installed with adb install (docs/androidworld.md)
#   --sdk DIR      SDK location (default: $ANDROID_HOME, $ANDROID_SDK_ROOT, or ~/Android/Sdk)
#
# Environment: CMDLINE_TOOLS_URL overrides the command-line tools download (Linux zip).
#
# Afterwards:
#   emulator -avd Pixel_7_Pro_API_33 -no-snapshot-save -no-audio &   # or use devices/androidlab.yaml,
#   adb wait-for-device                                               # which lets UiAutomator2 boot it
#   npx tsx scripts/start-appium.ts                                   # Appium on 127.0.0.1:4723
#   npx senseact devices check androidlab                             # or: emulator (emulator-5554)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
api=33
device=pixel_7_pro
avd=Pixel_7_Pro_API_33
image=google_apis
appium_only=0
androidworld=0
sdk="${ANDROID_HOME:-${ANDROID_SDK_ROOT:-$HOME/Android/Sdk}}"
case "$(uname -m)" in
  arm64|aarch64) abi=arm64-v8a ;;
  *) abi=x86_64 ;;
esac
cmdline_tools_url="${CMDLINE_TOOLS_URL:-https://dl.google.com/android/repository/commandlinetools-linux-11076708_latest.zip}"

while [ $# -gt 0 ]; do
  case "$1" in
    --appium-only) appium_only=1 ;;
    --androidworld) androidworld=1; device=pixel_6; avd=AndroidWorldAvd; image=google_apis ;;
    --sdk) sdk="$2"; shift ;;
    --api) api="$2"; shift ;;
    --device) device="$2"; shift ;;
    --avd) avd="$2"; shift ;;
    --abi) abi="$2"; shift ;;
    --image) image="$2"; shift ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "setup-emulator: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

step() { printf '\n== %s\n' "$*"; }
need() {
  command -v "$1" >/dev/null 2>&1 || { echo "setup-emulator: '$1' is not installed: $2" >&2; exit 1; }
}

install_appium_driver() {
  step "Appium UiAutomator2 driver in $repo/.appium"
  need node "install Node.js 20.19 or newer"
  if [ ! -f "$repo/node_modules/appium/index.js" ]; then
    echo "setup-emulator: Appium is not in node_modules: run 'npm ci' in $repo first." >&2
    exit 1
  fi
  export APPIUM_HOME="$repo/.appium"
  mkdir -p "$APPIUM_HOME"
  if node "$repo/node_modules/appium/index.js" driver list --installed --json 2>/dev/null | grep -q '"uiautomator2"'; then
    echo "uiautomator2 is already installed"
  else
    node "$repo/node_modules/appium/index.js" driver install uiautomator2
  fi
  # The simulator driver is linked by scripts/start-appium.ts --sim (npm run sim:appium) at
  # each start; a driver install may prune that link, which is why it is not done here.
}

if [ "$appium_only" = 1 ]; then
  install_appium_driver
  exit 0
fi

need java "install a JDK 17+ (e.g. 'apt-get install openjdk-17-jdk-headless'); sdkmanager needs it"
need curl "install curl"
need unzip "install unzip"

step "Android SDK command-line tools in $sdk"
mkdir -p "$sdk"
if [ ! -x "$sdk/cmdline-tools/latest/bin/sdkmanager" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  curl -fL --retry 3 -o "$tmp/cmdline-tools.zip" "$cmdline_tools_url"
  unzip -q "$tmp/cmdline-tools.zip" -d "$tmp"
  mkdir -p "$sdk/cmdline-tools"
  rm -rf "$sdk/cmdline-tools/latest"
  mv "$tmp/cmdline-tools" "$sdk/cmdline-tools/latest"
else
  echo "already installed"
fi
export ANDROID_HOME="$sdk" ANDROID_SDK_ROOT="$sdk"
export PATH="$sdk/cmdline-tools/latest/bin:$sdk/platform-tools:$sdk/emulator:$PATH"

step "Licences"
yes | sdkmanager --licenses >/dev/null || true

system_image="system-images;android-${api};${image};${abi}"
step "platform-tools, emulator, platforms;android-${api}, ${system_image}"
sdkmanager --install "platform-tools" "emulator" "platforms;android-${api}" "$system_image"

step "AVD ${avd} (${device}, API ${api}, ${abi})"
if avdmanager list avd -c | grep -qx "$avd"; then
  echo "already exists"
else
  echo no | avdmanager create avd --name "$avd" --package "$system_image" --device "$device"
fi
if [ "$abi" = x86_64 ] && [ ! -e /dev/kvm ]; then
  echo "setup-emulator: warning: /dev/kvm is missing; an x86_64 emulator will be very slow without hardware acceleration." >&2
fi

install_appium_driver

# AndroidWorld's apps (docs/androidworld.md): the APK files its own setup installs, from its
# public bucket, into androidworld-apks/ (the path the suite's `installed` steps name).
androidworld_apks=(
  com.dimowner.audiorecorder_926.apk clipper.apk com.arduia.expense_11.apk net.gsantner.markor_146.apk
  com.simplemobiletools.smsmessenger_85.apk net.cozic.joplin_2097740.apk net.osmand-4.6.13.apk
  com.flauschcode.broccoli_1020600.apk code.name.monkey.retromusic_10603.apk
  com.simplemobiletools.calendar.pro_238.apk com.simplemobiletools.draw.pro_79.apk
  com.simplemobiletools.gallery.pro_396.apk de.dennisguse.opentracks_5705.apk org.tasks_130605.apk
  org.videolan.vlc_13050408.apk
)
if [ "$androidworld" = 1 ]; then
  step "AndroidWorld's apps in $repo/androidworld-apks"
  mkdir -p "$repo/androidworld-apks"
  for apk in "${androidworld_apks[@]}"; do
    if [ -s "$repo/androidworld-apks/$apk" ]; then echo "have $apk"; continue; fi
    curl -fL --retry 3 -o "$repo/androidworld-apks/$apk.part" "https://storage.googleapis.com/gresearch/android_world/$apk"
    mv "$repo/androidworld-apks/$apk.part" "$repo/androidworld-apks/$apk"
  done
  if adb get-state >/dev/null 2>&1; then
    for apk in "${androidworld_apks[@]}"; do
      echo "adb install -r -g $apk"
      adb install -r -g "$repo/androidworld-apks/$apk"
    done
  else
    echo "no emulator online: start it (emulator -avd $avd -no-snapshot-save -no-audio &), then run this again to install the apps"
  fi
fi

step "Done"
cat <<EOF
Add to your shell profile:
  export ANDROID_HOME="$sdk"
  export PATH="\$ANDROID_HOME/platform-tools:\$ANDROID_HOME/emulator:\$PATH"
Then:
  emulator -avd $avd -no-snapshot-save -no-audio &
  adb wait-for-device
  npx tsx scripts/start-appium.ts
  npx senseact devices check $([ "$androidworld" = 1 ] && echo 'emulator --suite androidworld' || echo androidlab)
EOF
