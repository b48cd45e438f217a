//! The result of an audit: named checks with verdicts, rendered as text or as JSON
//! ([`CheckReport::to_json`], the object `check-dh` / `check-rsa --json` print,
//! `docs/json.md`); names and status strings here are that format's stable values.

/// Verdict of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The property holds.
    Pass,
    /// The property holds but is below a recommendation (e.g. a 1024-bit modulus).
    Warn,
    /// The property does not hold.
    Fail,
    /// Not evaluated because a check it depends on failed (counts as not passed).
    Skip,
}

impl Status {
    /// Stable lower-case name used in text and JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Skip => "skip",
        }
    }

    /// Pass or Warn.
    pub fn passed(self) -> bool {
        matches!(self, Status::Pass | Status::Warn)
    }

    /// Pass when `ok`, Fail otherwise.
    pub fn from_bool(ok: bool) -> Status {
        if ok {
            Status::Pass
        } else {
            Status::Fail
        }
    }
}

/// One audited property: stable `name`, verdict, and a human-readable `detail`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Stable name (`p_prime`, `g_order`, ...), as `--json` reports it.
    pub name: &'static str,
    /// The verdict.
    pub status: Status,
    /// What was found, for people.
    pub detail: String,
}

impl Check {
    /// A check named `name` with its verdict and detail.
    pub fn new(name: &'static str, status: Status, detail: impl Into<String>) -> Self {
        Check { name, status, detail: detail.into() }
    }

    /// Pass or Warn.
    pub fn passed(&self) -> bool {
        self.status.passed()
    }
}

/// All checks of one file, in a fixed order, plus the format that was parsed
/// (`"pkcs3"`, `"x9.42"`, `"pkcs1"`, `"pkcs8"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// The format parsed: `"pkcs3"`, `"x9.42"`, `"pkcs1"` or `"pkcs8"`.
    pub format: &'static str,
    /// The checks, in their fixed order.
    pub checks: Vec<Check>,
}

impl CheckReport {
    /// True when every check passed (warnings included).
    pub fn ok(&self) -> bool {
        self.checks.iter().all(Check::passed)
    }

    /// The check called `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.name == name)
    }

    /// The report as JSON. Shape (stable; keys are only ever added, never renamed or
    /// removed): `{"format": "...", "ok": bool, "checks": [{"name": "...", "status":
    /// "pass"|"warn"|"fail"|"skip", "passed": bool, "detail": "..."}]}`. `passed` is true
    /// for `pass` and `warn`; `ok` is true when every check passed.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let checks: Vec<serde_json::Value> = self
            .checks
            .iter()
            .map(|c| json!({"name": c.name, "status": c.status.as_str(), "passed": c.passed(), "detail": c.detail}))
            .collect();
        json!({"format": self.format, "ok": self.ok(), "checks": checks})
    }

    /// One line per check (`FAIL  p_prime: ...`) then a verdict line.
    pub fn to_text(&self) -> String {
        let mut out = format!("format: {}\n", self.format);
        for c in &self.checks {
            out += &format!("{:<5} {}: {}\n", c.status.as_str().to_uppercase(), c.name, c.detail);
        }
        let failed = self.checks.iter().filter(|c| !c.passed()).count();
        let warned = self.checks.iter().filter(|c| c.status == Status::Warn).count();
        out += &if failed == 0 {
            format!("result: OK ({} checks, {warned} warnings)\n", self.checks.len())
        } else {
            format!("result: FAILED ({failed} of {} checks not passed)\n", self.checks.len())
        };
        out
    }
}
