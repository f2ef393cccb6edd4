import { always, type CommandRule } from './commandRule';

/** Never from an agent: these act on the machine, not the project, and some cannot be undone. */

const disk = always('denied', 'acts on disks or file systems');
const power = always('denied', 'stops or restarts the machine');
const services = always('denied', 'changes system services');
const privilege = always('denied', 'runs as another user (privilege escalation)');
const admin = always('denied', 'changes system administration settings');

// crontab -l only lists; anything else installs jobs that outlive the session.
const crontab: CommandRule = (inv, sink) => {
  if (!(inv.args.length === 1 && inv.args[0].text === '-l')) sink.flag('denied', 'schedules jobs that outlive the session');
};

export const SYSTEM_RULES: Record<string, CommandRule> = {
  mkfs: disk, mke2fs: disk, mkswap: disk, fdisk: disk, sfdisk: disk, cfdisk: disk, gdisk: disk, parted: disk,
  wipefs: disk, mount: disk, umount: disk, swapon: disk, swapoff: disk, diskutil: disk,
  shutdown: power, reboot: power, halt: power, poweroff: power, init: power, telinit: power,
  systemctl: services, service: services, launchctl: services,
  pkexec: privilege, runuser: privilege, chroot: privilege,
  insmod: admin, rmmod: admin, modprobe: admin, sysctl: admin, iptables: admin, ip6tables: admin, nft: admin,
  useradd: admin, userdel: admin, usermod: admin, passwd: admin, chpasswd: admin, visudo: admin,
  crontab,
};

/** Name families matched by prefix (mkfs.ext4, mkfs.xfs, …). */
export const SYSTEM_PREFIXES: [string, CommandRule][] = [['mkfs.', disk]];
