#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
qemu-device.py JOB.yaml: print the device dictionary of a local qemu
device for lava-run, as lava-server renders the qemu device type for that
job (etc/dispatcher-config/device-types/qemu.jinja2 and base.jinja2 in
lava's sources, not installed with lava-dispatcher): the job's context
picks the QEMU command (arch), -cpu host -enable-kvm unless no_kvm, -m
from memory (default 512), the NIC (model, netdevice), -monitor, and
extra_options after them.  Only what a tmpfs deploy and a qemu boot on
amd64 read is written; the constants and timeouts are the template's
defaults.
"""
import sys

import yaml

job = yaml.safe_load(open(sys.argv[1]))
ctx = job.get("context", {})
if ctx.get("arch") not in ("amd64", "x86_64"):
    sys.exit("%s: context arch %r: this renders amd64 only" % (sys.argv[1], ctx.get("arch")))
options = []
if not ctx.get("no_kvm"):
    options += ["-cpu host", "-enable-kvm"]
options += [
    "-nographic",
    "-net nic,%s,macaddr=%s -net %s" % (ctx.get("model", "model=virtio"),
                                        "52:54:00:12:34:58",
                                        ctx.get("netdevice", "user")),
    "-m %s" % ctx.get("memory", 512),
    "-monitor %s" % ctx.get("monitor", "none"),
]
qemu = {"parameters": {
    "command": "qemu-system-x86_64",
    "boot_options": {"root": "/dev/sda1", "console": "ttyS0,115200",
                     "boot_order": "c"},
    "options": options,
}}
if ctx.get("extra_options"):
    qemu["parameters"]["extra"] = ctx["extra_options"]
device = {
    "device_type": "qemu",
    "constants": {
        "posix": {"lava_test_sh_cmd": "/bin/sh",
                  "lava_test_results_dir": "/lava-%s",
                  "lava_test_shell_file": "~/.bashrc"},
        "shutdown-message": "The system is going down for reboot NOW",
        "kernel-start-message": "Linux version [0-9]",
        "default-shell-prompt": "lava-test: # ",
        "spawn_maxread": "4092",
        "failure_retry": 1,
        "boot_retry": 1,
    },
    "parameters": {"pass": None},
    "available_architectures": ["amd64", "x86_64"],
    "actions": {
        "deploy": {
            "connections": {"serial": None, "lxc": None},
            "methods": {"image": {"parameters": {"guest": {
                "size": 512, "interface": "ide", "driveid": "lavatest"}}}},
        },
        "boot": {
            "connections": {"serial": None, "ssh": None, "lxc": None},
            "methods": {"qemu": qemu},
        },
    },
    "timeouts": {
        "actions": {"http-download": {"minutes": 5},
                    "boot-qemu-image": {"minutes": 2},
                    "boot-image-retry": {"minutes": 2},
                    "power-off": {"seconds": 10}},
        "connections": {"lava-test-shell": {"seconds": 10}},
    },
}
yaml.safe_dump(device, sys.stdout, default_flow_style=False)
