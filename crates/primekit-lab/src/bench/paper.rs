//! The published figures of Massimo & Paterson 2020 (Table 2, Table 3), copied from
//! `shared/reference/seed-figures.md`, printed beside ours as within-run ratios.

/// (k, r, part, [MRAC, MR64, MR128, BPSW]) in ms; Intel Xeon E5-2690 v4, OpenSSL 1.1.1b.
pub const TABLE2: &[(u32, usize, &str, [f64; 4])] = &[
    (512, 0, "composite", [0.085, 0.085, 0.085, 0.079]),
    (512, 64, "composite", [0.020, 0.020, 0.020, 0.020]),
    (512, 2047, "composite", [0.067, 0.067, 0.067, 0.067]),
    (512, 0, "prime", [0.375, 4.65, 9.29, 2.11]),
    (512, 64, "prime", [0.389, 4.67, 9.31, 2.12]),
    (512, 2047, "prime", [0.818, 5.10, 9.73, 2.55]),
    (512, 0, "overall", [0.086, 0.111, 0.137, 0.091]),
    (512, 64, "overall", [0.022, 0.046, 0.073, 0.031]),
    (512, 2047, "overall", [0.071, 0.095, 0.121, 0.081]),
    (1024, 0, "composite", [0.312, 0.313, 0.312, 0.302]),
    (1024, 128, "composite", [0.063, 0.063, 0.063, 0.061]),
    (1024, 2047, "composite", [0.135, 0.134, 0.134, 0.133]),
    (1024, 0, "prime", [1.50, 19.1, 38.1, 5.39]),
    (1024, 128, "prime", [1.55, 19.1, 38.2, 5.44]),
    (1024, 2047, "prime", [2.26, 19.8, 38.9, 6.15]),
    (1024, 0, "overall", [0.315, 0.366, 0.419, 0.316]),
    (1024, 128, "overall", [0.067, 0.117, 0.170, 0.077]),
    (1024, 2047, "overall", [0.141, 0.190, 0.244, 0.150]),
    (2048, 0, "composite", [2.40, 2.40, 2.40, 2.39]),
    (2048, 384, "composite", [0.401, 0.401, 0.402, 0.401]),
    (2048, 2047, "composite", [0.523, 0.523, 0.523, 0.522]),
    (2048, 0, "prime", [9.55, 152.6, 305.2, 41.6]),
    (2048, 384, "prime", [9.87, 152.2, 304.0, 41.9]),
    (2048, 2047, "prime", [11.4, 153.3, 304.8, 43.5]),
    (2048, 0, "overall", [2.41, 2.61, 2.83, 2.45]),
    (2048, 384, "overall", [0.414, 0.614, 0.827, 0.459]),
    (2048, 2047, "overall", [0.538, 0.737, 0.948, 0.582]),
];

/// Column of a Table 2 test, if it is one of the four.
pub fn table2_column(test: &str) -> Option<usize> {
    ["mrac", "mr64", "mr128", "bpsw"].iter().position(|&t| t == test)
}

/// The paper's Table 2 value for (k, r, part, test).
pub fn table2(bits: u32, r: usize, part: &str, test: &str) -> Option<f64> {
    let c = table2_column(test)?;
    TABLE2.iter().find(|(k, rr, p, _)| *k == bits && *rr == r && *p == part).map(|row| row.3[c])
}

/// Table 3 (2^20 adversarial 1024-bit inputs): rounds -> (MRAC, MR64) counts.
pub const TABLE3: &[(u32, Option<u64>, u64)] = &[
    (1, Some(787054), 786765),
    (2, Some(196110), 196268),
    (3, Some(49167), 49305),
    (4, Some(12157), 12103),
    (5, Some(4088), 3129),
    (6, None, 776),
    (7, None, 169),
    (8, None, 44),
    (9, None, 13),
    (10, None, 4),
];

/// Table 3's inputs and MRAC's misclassified count among them.
pub const TABLE3_INPUTS: u64 = 1 << 20;
pub const TABLE3_MRAC_MISCLASSIFIED: u64 = 1000;
