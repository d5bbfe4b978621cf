//! A process's CPU time and resident memory from Linux's `/proc`, for the harnesses that measure
//! them (`soak`, `held`, `bench_http`; each includes this file with `#[path]`).

/// User + system CPU of process `pid` (a pid, or `"self"`) so far, in clock ticks (100 per
/// second on Linux); 0 when `/proc/<pid>/stat` cannot be read.
pub(crate) fn cpu_ticks(pid: impl std::fmt::Display) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // After the command name (in parentheses): state is field 3, utime 14, stime 15.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, r)| r)
        .split_whitespace()
        .collect();
    let field = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(14) + field(15)
}

/// `VmRSS` of process `pid` (a pid, or `"self"`), in KiB; 0 when `/proc/<pid>/status` cannot
/// be read.
pub(crate) fn rss_kib(pid: impl std::fmt::Display) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
