//! The process's own figures in the names every Prometheus client library gives them
//! (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_open_fds`,
//! `process_max_fds`, `process_start_time_seconds`), read from `/proc` at each scrape; a
//! figure the system does not give (off Linux) is left out.

use std::fmt::Write as _;

use super::family;

/// Clock ticks per second in `/proc`'s times: Linux fixes `USER_HZ` at 100 for user space.
const TICKS_PER_SEC: f64 = 100.0;

/// Appends the process's figures to `text`.
pub(super) fn write(text: &mut String) {
    let stat = std::fs::read_to_string("/proc/self/stat").ok();
    let times = stat.as_deref().and_then(stat_times);
    if let Some(times) = times {
        gauge_or_counter(
            text,
            "process_cpu_seconds_total",
            "counter",
            "Total user and system CPU time spent in seconds.",
            (times.utime + times.stime) as f64 / TICKS_PER_SEC,
        );
    }
    if let Some(memory) = super::super::stats::memory() {
        gauge_or_counter(
            text,
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
            memory.rss_bytes as f64,
        );
    }
    if let Some(open) = open_fds() {
        gauge_or_counter(
            text,
            "process_open_fds",
            "gauge",
            "Number of open file descriptors.",
            open as f64,
        );
    }
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    if let Some(max) = limits.as_deref().and_then(max_open_files) {
        gauge_or_counter(
            text,
            "process_max_fds",
            "gauge",
            "Maximum number of open file descriptors.",
            max as f64,
        );
    }
    let boot = std::fs::read_to_string("/proc/stat").ok();
    if let (Some(times), Some(boot)) = (times, boot.as_deref().and_then(boot_time)) {
        gauge_or_counter(
            text,
            "process_start_time_seconds",
            "gauge",
            "Start time of the process since unix epoch in seconds.",
            boot as f64 + times.start as f64 / TICKS_PER_SEC,
        );
    }
}

/// One family of one sample.
fn gauge_or_counter(text: &mut String, name: &str, kind: &str, help: &str, value: f64) {
    family(text, name, kind, help);
    let _ = writeln!(text, "{name} {value}\n");
}

/// What `/proc/self/stat` says of the process's times, in clock ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StatTimes {
    /// CPU time in user space.
    utime: u64,
    /// CPU time in the kernel on the process's behalf.
    stime: u64,
    /// When the process started, after the machine booted.
    start: u64,
}

/// `utime` (field 14), `stime` (15) and `starttime` (22) of a `stat` line. The command name
/// (field 2) may hold spaces and parentheses, so fields are counted after its closing one.
fn stat_times(stat: &str) -> Option<StatTimes> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace();
    // Fields 3 to 13 come first.
    let utime = fields.nth(11)?.parse().ok()?;
    let stime = fields.next()?.parse().ok()?;
    // Then 16 to 21.
    let start = fields.nth(6)?.parse().ok()?;
    Some(StatTimes {
        utime,
        stime,
        start,
    })
}

/// The machine's boot time, in seconds since the epoch: `btime` of `/proc/stat`.
fn boot_time(stat: &str) -> Option<u64> {
    stat.lines()
        .find_map(|line| line.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()
}

/// The soft limit of open files in `/proc/self/limits` (`None` when unlimited).
fn max_open_files(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find_map(|line| line.strip_prefix("Max open files"))?;
    line.split_whitespace().next()?.parse().ok()
}

/// The entries of `/proc/self/fd` (the one reading it among them, as other clients count).
fn open_fds() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_read_after_the_command_name() {
        let stat = "4242 (tokio rt (x)) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 56 0 0 \
                    20 0 3 0 98765 1000000 500";
        let times = stat_times(stat).expect("a whole line");
        assert_eq!(
            times,
            StatTimes {
                utime: 1234,
                stime: 56,
                start: 98765
            }
        );
        assert_eq!(stat_times("4242 (cut short) S 1 2"), None);
    }

    #[test]
    fn boot_time_and_the_open_files_limit_are_read() {
        let stat = "cpu  1 2 3 4\nintr 5\nbtime 1700000000\nprocesses 9\n";
        assert_eq!(boot_time(stat), Some(1_700_000_000));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max processes             63455                63455                processes\n\
                      Max open files            1024                 524288               files\n";
        assert_eq!(max_open_files(limits), Some(1024));
        let unlimited =
            "Max open files            unlimited            unlimited            files\n";
        assert_eq!(max_open_files(unlimited), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_every_figure() {
        let mut text = String::new();
        write(&mut text);
        for name in [
            "process_cpu_seconds_total",
            "process_resident_memory_bytes",
            "process_open_fds",
            "process_max_fds",
            "process_start_time_seconds",
        ] {
            assert!(
                text.contains(&format!("# TYPE {name} ")),
                "{name} in:\n{text}"
            );
            assert!(text.contains(&format!("\n{name} ")), "{name} in:\n{text}");
        }
        let start: f64 = text
            .lines()
            .find_map(|line| line.strip_prefix("process_start_time_seconds "))
            .and_then(|value| value.parse().ok())
            .expect("a start time");
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64();
        assert!(
            start <= now + 1.0 && start > now - 86_400.0,
            "{start} against {now}"
        );
    }
}
