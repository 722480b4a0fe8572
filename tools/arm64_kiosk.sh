#!/bin/sh
# tools/arm64_kiosk.sh: docs/kiosk.md, word for word, in an emulated arm64 Debian userland of the
# release Raspberry Pi OS follows, on an x86-64 machine (CI runs it after the suite).
#
#   sudo tools/arm64_kiosk.sh          (as root: it installs its tools, mounts and chroots)
#
# 1. Installs Debian's mmdebstrap, qemu-user-static and binfmt-support with apt-get, and has the
#    kernel run arm64 programs through qemu-aarch64-static (binfmt_misc, "fix binary" flag F);
#    anything missing stops it with the reason, never a silent skip.
# 2. Builds, once, a Debian $RELEASE arm64 userland from this machine's own Debian mirror (read
#    from /etc/apt/sources.list*) with what Raspberry Pi OS Lite has before the maker types
#    anything (python3, systemd, udev, sudo, ...) and MicroPython's unix port for a test pad;
#    it is cached in $CACHE keyed by release and package list, with apt's downloaded packages
#    and pip's cache beside it, so later runs download nothing.
# 3. In a private mount namespace, on a fresh overlay of that userland, runs the two install
#    blocks of docs/kiosk.md as written (only the substitutions printed as NOTE lines differ),
#    with the repository cloned from this checkout's HEAD.
# 4. Checks what a maker checks: `doctor` on the reference configuration (gpiozero's mock pin
#    factory standing for the Pi's pins), one whole game with a MicroPython pad on a
#    pseudo-terminal (`qwixx-tower demo`), the unit enabled and `systemd-analyze verify` clean.
# Timings printed are the run's budget, not the tower's figures: everything runs under emulation.
set -eu

RELEASE=trixie  # Raspberry Pi OS 6 (2025-10-01) follows Debian 13 "trixie"
ARCH=arm64
# What Raspberry Pi OS Lite already has that a minimal userland lacks (its image's ssh, sudo,
# less, curl, perl and python3: pi-gen's stage 2), and the test pad's MicroPython. The kiosk's
# own apt packages are not here: docs/kiosk.md installs them.
BASE_PACKAGES="systemd,systemd-sysv,udev,sudo,ca-certificates,python3,openssh-client,perl,less"
BASE_PACKAGES="$BASE_PACKAGES,curl,micropython"
# The groups Raspberry Pi OS's own packages make (raspberrypi-sys-mods, bluez) and Debian lacks.
PI_GROUPS="gpio i2c spi bluetooth"
# The Zero 2 W's core, for every program qemu runs: QEMU's default, "max", has pointer
# authentication, which no Pi's core has and which QEMU 7.2 computes at great cost for every
# function Debian's arm64 binaries call (ten times the CPU of Python's start here).
export QEMU_CPU=cortex-a53
CACHE=${QWIXX_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qwixx-tower/arm64}
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
KIOSK_DOC=$ROOT_DIR/docs/kiosk.md
START=$(date +%s)

say() { echo "arm64: $*"; }
note() { echo "arm64: NOTE: $*" >&2; }
fail() { echo "arm64: FAILED: $*" >&2; exit 1; }
elapsed() { echo "$(($(date +%s) - START)) s"; }
cpu_now() {  # CPU=the CPU seconds (user and system) of the children this shell waited for
    times >"$work/times"  # in this shell: a subshell's children are not this shell's
    CPU=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
        printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/times")
}

need_root() {
    [ "$(id -u)" = 0 ] || fail "run as root (mmdebstrap, binfmt_misc, mounts and chroot need it)"
}

need_tools() {
    # Debian's packages, installed the way ./dev installs its other tools.
    missing=""
    command -v mmdebstrap >/dev/null || missing="$missing mmdebstrap"
    [ -x /usr/bin/qemu-aarch64-static ] || missing="$missing qemu-user-static"
    command -v update-binfmts >/dev/null || missing="$missing binfmt-support"
    [ -z "$missing" ] && return 0
    command -v apt-get >/dev/null || fail "no apt-get to install$missing"
    say "installing$missing with apt-get ..."
    # shellcheck disable=SC2086
    { apt-get update -qq && apt-get install -y -qq $missing >/dev/null; } ||
        fail "apt-get could not install$missing"
}

enable_binfmt() {
    # arm64 programs run through qemu-aarch64-static, which the kernel starts for them.
    misc=/proc/sys/fs/binfmt_misc
    if [ ! -e "$misc/register" ]; then
        mount -t binfmt_misc binfmt_misc "$misc" ||
            fail "the kernel refused to mount binfmt_misc at $misc"
    fi
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    [ -r "$misc/qemu-aarch64" ] || fail "binfmt_misc has no qemu-aarch64 entry (update-binfmts)"
    grep -qx enabled "$misc/qemu-aarch64" || fail "binfmt_misc's qemu-aarch64 entry is disabled"
    # F: the kernel opens qemu when registering, so it works inside a chroot without a copy.
    grep -q '^flags: .*F' "$misc/qemu-aarch64" ||
        fail "binfmt_misc's qemu-aarch64 entry lacks the F flag: a chroot cannot find qemu"
    say "arm64 programs run through binfmt_misc: $(sed -n 's/^interpreter //p' "$misc/qemu-aarch64")"
}

debian_mirror() {
    # The URI this machine's apt takes Debian from: deb822 sources or one-line lists.
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        /etc/apt/sources.list.d/*.list; do
        [ -r "$file" ] || continue
        awk -v want="$codename" '
            /^deb / { if ($3 == want) { print $2; exit } }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want && uri != "") { print uri; exit } }
            /^$/ { uri = "" }' "$file"
    done | head -n 1
}

userland_key() {
    echo "$RELEASE $ARCH $BASE_PACKAGES $PI_GROUPS" | sha256sum | cut -c1-12
}

build_userland() {  # $1: the folder to build into (cached once complete)
    target=$1
    [ -f "$target/.complete" ] && { say "userland from the cache: $target"; return 0; }
    mirror=$(debian_mirror)
    [ -n "$mirror" ] || fail "no Debian mirror found in /etc/apt/sources.list*"
    rm -rf "$target"
    say "building a Debian $RELEASE $ARCH userland from this machine's mirror (once) ..."
    # mmdebstrap resolves and downloads with this machine's own apt; only dpkg and the
    # packages' scripts run emulated (debootstrap's second stage scans the archive's package
    # list with emulated perl, 20 minutes and more). apt's lists are kept: a Pi's image has them.
    # dpkg skips its fsyncs (force-unsafe-io), here and in the runs (prepare_pi): a throwaway
    # root on a shared disk, where each fsync of an emulated dpkg waits on everybody's writes.
    mmdebstrap --mode=root --arch="$ARCH" --variant=minbase --include="$BASE_PACKAGES" \
        --dpkgopt=force-unsafe-io --skip=cleanup/apt/lists \
        "$RELEASE" "$target" "deb $mirror $RELEASE main" \
        >"$target.log" 2>&1 || fail "mmdebstrap failed: see $target.log"
    for group in $PI_GROUPS; do chroot "$target" groupadd -f --system "$group"; done
    # apt keeps what it downloaded (bind-mounted from the cache) for the next run
    echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$target/etc/apt/apt.conf.d/90keep"
    touch "$target/.complete"
    say "userland built in $(elapsed)"
}

prime_apt() {  # $1: the userland; its package lists and apt's cache of them, built once
    # Without them every emulated apt command parses the archive's 56 MB list again, minutes.
    [ -f "$1/.apt-primed" ] && return 0
    say "apt's lists and cache in the userland (once) ..."
    chroot "$1" apt-get update -qq || fail "apt-get update failed in the userland"
    chroot "$1" apt-cache gencaches || fail "apt-cache gencaches failed in the userland"
    touch "$1/.apt-primed"
}

wheelhouse() {  # $1: the folder; the kiosk's wheels for Python 3.13 on aarch64, downloaded once
    # This machine's pip downloads them (its index, its certificates) natively: resolving the
    # index under emulation took pip ten minutes. Only wheels: anything without one for aarch64
    # stops the download here, and the emulated pip, given no index, cannot compile either.
    [ -f "$1/.complete" ] && return 0
    say "the kiosk's aarch64 wheels, downloaded once into $1 ..."
    rm -rf "$1" && mkdir -p "$1"
    platforms="--platform manylinux2014_aarch64"
    for glibc in $(seq 17 41); do platforms="$platforms --platform manylinux_2_${glibc}_aarch64"; done
    project_requirements >"$1/requirements.txt"
    # shellcheck disable=SC2086
    python3 -m pip download --dest "$1" --only-binary=:all: $platforms \
        --python-version 3.13 --implementation cp -r "$1/requirements.txt" >"$1.log" 2>&1 ||
        fail "pip found no wheel for aarch64 of a requirement: see $1.log"
    touch "$1/.complete"
}

project_requirements() {  # pyproject.toml's dependencies and build requirements, one a line
    python3 -c 'import sys, tomllib
p = tomllib.load(open(sys.argv[1], "rb"))
print("\n".join(p["project"]["dependencies"] + p["build-system"]["requires"]))' \
        "$ROOT_DIR/pyproject.toml"
}

kiosk_block() {  # $1: which ```sh block of docs/kiosk.md (1: the install, 2: check and start)
    awk -v want="$1" '/^```sh$/ { n++; inside = 1; next } /^```$/ { inside = 0; next }
        inside && n == want' "$KIOSK_DOC"
}

as_emulated() {  # the install's substitutions, each said as it is made
    note "'<this repository>' is the clone of this checkout's HEAD at /srv/qwixx-tower.git"
    note "python3-lgpio is Raspberry Pi's own package (its archive; Debian's trixie arm64 list" \
        "has no lgpio): left out here; gpiozero's mock pin factory stands for the pins"
    note "raspi-config is Raspberry Pi's own tool: a stand-in records what it was asked"
    note "pip is given no index, only the wheels this machine's pip downloaded for aarch64"
    sed -e 's|<this repository>|/srv/qwixx-tower.git|' -e 's| python3-lgpio||'
}

mount_userland() {  # $1: the cached userland, $2: an empty folder; the root is $2/root
    userland=$1 work=$2
    mount -t tmpfs qwixx-arm64 "$work"
    mkdir "$work/upper" "$work/work" "$work/root"
    mount -t overlay overlay \
        -o "lowerdir=$userland,upperdir=$work/upper,workdir=$work/work" "$work/root"
    R=$work/root
    mount -t proc proc "$R/proc"
    mount -t sysfs -o ro sysfs "$R/sys"
    mount --rbind /dev "$R/dev"  # the pads' pseudo-terminals come from /dev/pts
    mount -t tmpfs tmpfs "$R/run"
    mount -t tmpfs tmpfs "$R/tmp"
    mkdir -p "$CACHE/apt-archives/partial" "$R/srv/wheels"
    mount --bind "$CACHE/apt-archives" "$R/var/cache/apt/archives"
    mount --bind -o ro "$wheels" "$R/srv/wheels"
    cp /etc/resolv.conf "$R/etc/resolv.conf"
}

prepare_pi() {  # $1: the root; what a Pi has that the chroot lacks, and the clone to install
    R=$1
    git clone -q --bare "$ROOT_DIR" "$R/srv/qwixx-tower.git"
    mkdir -p "$R/boot/firmware"
    printf '%s\n' '#!/bin/sh' 'echo "raspi-config $*" >>/var/log/raspi-config.stand-in' \
        >"$R/usr/bin/raspi-config"
    chmod 755 "$R/usr/bin/raspi-config"
    # sudo keeps the pin factory, as the Pi's real pins need no variable at all
    # (and qemu its core)
    echo 'Defaults env_keep += "GPIOZERO_PIN_FACTORY QEMU_CPU"' >"$R/etc/sudoers.d/qwixx-emulation"
    # pip takes the wheels downloaded for aarch64 (wheelhouse), and no index
    printf '%s\n' '[global]' 'no-index = true' 'find-links = /srv/wheels' >"$R/etc/pip.conf"
    echo "127.0.1.1 $(hostname)" >>"$R/etc/hosts"  # as the Pi's image names itself
    echo force-unsafe-io >"$R/etc/dpkg/dpkg.cfg.d/qwixx-unsafe-io"  # a throwaway root
}

in_pi() {  # $1: the root, then a shell script to run there as root, with a login's environment
    R=$1
    shift
    chroot "$R" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb QEMU_CPU="$QEMU_CPU" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        GPIOZERO_PIN_FACTORY=mock /bin/sh -eu -c "$*"
}

step() {  # $1: what, $2: the root, $3: its script; prints the script, runs it, times it
    what=$1
    before=$(date +%s)
    say "== $what"
    echo "$3" | sed 's/^/    $ /'
    in_pi "$2" "$3" || fail "$what"
    say "   ($what: $(($(date +%s) - before)) s under emulation)"
}

follow() {  # $1: what, $2: the root, $3: a block of docs/kiosk.md; each line run as written
    say "== $1"
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        before=$(date +%s)
        cpu_now && cpu=$CPU
        echo "    \$ $line"
        in_pi "$2" "$line" </dev/null || fail "$1: $line"
        cpu_now
        say "   ($(($(date +%s) - before)) s, $((CPU - cpu)) s of CPU, under emulation)"
    done <<EOF
$3
EOF
}

check_doctor() {  # $1: the root, $2: doctor's line of docs/kiosk.md
    say "== doctor on the reference configuration, gpiozero's mock pins"
    echo "    \$ $2"
    status=0
    in_pi "$1" "$2" >"$1/tmp/doctor.out" 2>&1 || status=$?
    sed 's/^/    /' "$1/tmp/doctor.out"
    [ "$status" -le 1 ] || fail "doctor exited with $status"
    ! grep -q Traceback "$1/tmp/doctor.out" || fail "doctor crashed"
    grep -q '^\[ok\] roll button' "$1/tmp/doctor.out" || fail "doctor did not find the button"
    grep -q '^\[ok\] lock lights' "$1/tmp/doctor.out" || fail "doctor did not find the lights"
}

check_game() {  # $1: the root
    step "one whole game, a MicroPython pad on a pseudo-terminal" "$1" \
        'cd /tmp && sudo -u qwixx /opt/qwixx-tower/.venv/bin/qwixx-tower demo --plain \
            --players Ann --pace 0.05 --state-dir /tmp/demo >/tmp/demo.out 2>&1 \
            || { tail -40 /tmp/demo.out; exit 1; }
         tail -12 /tmp/demo.out
         grep -q "game over" /tmp/demo.out'
}

check_unit() {  # $1: the root
    step "the unit: enabled, and systemd-analyze verify" "$1" \
        'test -L /etc/systemd/system/multi-user.target.wants/qwixx-tower.service
         systemd-analyze verify /etc/systemd/system/qwixx-tower.service
         grep -qx "raspi-config nonint do_i2c 0" /var/log/raspi-config.stand-in
         grep -qx "dtparam=i2c_arm_baudrate=400000" /boot/firmware/config.txt
         python3 -c "import platform; print(\"machine:\", platform.machine())"'
}

inside() {  # in private mount and PID namespaces: all is unmounted and ended when it ends
    mkdir -p "$CACHE"  # (a fresh machine has none of it)
    userland=$CACHE/$RELEASE-$(userland_key)
    build_userland "$userland"
    prime_apt "$userland"
    wheels=$CACHE/wheels-$(sha256sum <"$ROOT_DIR/pyproject.toml" | cut -c1-12)
    wheelhouse "$wheels"
    work=$(mktemp -d /tmp/qwixx-arm64.XXXXXX)
    mount_userland "$userland" "$work"
    R=$work/root
    prepare_pi "$R"
    install=$(kiosk_block 1)
    start=$(kiosk_block 2)
    echo "$install" | grep -q '^sudo apt install' || fail "docs/kiosk.md's install block moved"
    echo "$start" | grep -q ' doctor ' || fail "docs/kiosk.md's second block moved"
    follow "docs/kiosk.md: the install" "$R" "$(echo "$install" | as_emulated)"
    check_doctor "$R" "$(echo "$start" | grep ' doctor ')"
    note "'systemctl enable --now' is 'enable': no systemd runs in a chroot to start it now"
    follow "docs/kiosk.md: start the kiosk" "$R" \
        "$(echo "$start" | grep -v ' doctor ' | sed 's/enable --now/enable/')"
    check_unit "$R"
    check_game "$R"
    say "docs/kiosk.md works on $RELEASE $ARCH (emulated): $(elapsed) in all"
}

if [ "${1:-}" = --inside ]; then
    inside
else
    need_root
    need_tools
    enable_binfmt
    # A PID namespace of its own, so that its PID 1 is this script outside the chroot: systemd's
    # tools find they run in a chroot by comparing PID 1's root with theirs, and this machine's
    # own PID 1 may not be looked at (then they try to talk to a systemd that is not there).
    exec unshare --mount --propagation private --pid --fork --kill-child "$0" --inside
fi
