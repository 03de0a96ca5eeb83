//! The cost model `cost(len) = a + b * len` ns of one verification at a
//! gear (docs/gears.md section 6.7): configuration the application
//! supplies. The library never measures time; the `fastmac` CLI calibrates
//! the models by a short start-up micro-benchmark, tests use emulated ones.

/// `a + b * len` nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostModel {
    /// Fixed cost per packet, ns.
    pub a_ns: f64,
    /// Cost per byte, ns.
    pub b_ns_per_byte: f64,
}

impl CostModel {
    /// Costs nothing.
    pub const ZERO: CostModel = CostModel { a_ns: 0.0, b_ns_per_byte: 0.0 };

    /// Predicted ns for a `len`-byte message.
    pub fn ns(&self, len: usize) -> f64 {
        self.a_ns + self.b_ns_per_byte * len as f64
    }

    /// Both coefficients multiplied by `factor` (an emulated slower CPU).
    pub fn scaled(&self, factor: f64) -> CostModel {
        CostModel { a_ns: self.a_ns * factor, b_ns_per_byte: self.b_ns_per_byte * factor }
    }

    /// The sum of two models (two checks on one packet).
    pub fn plus(&self, other: CostModel) -> CostModel {
        CostModel { a_ns: self.a_ns + other.a_ns, b_ns_per_byte: self.b_ns_per_byte + other.b_ns_per_byte }
    }

    /// Coefficient-wise maximum.
    pub fn max(self, other: CostModel) -> CostModel {
        CostModel { a_ns: self.a_ns.max(other.a_ns), b_ns_per_byte: self.b_ns_per_byte.max(other.b_ns_per_byte) }
    }

    /// Least-squares line through `(len, ns)` points, clamped to
    /// non-negative coefficients.
    pub fn fit(points: &[(usize, f64)]) -> CostModel {
        let n = points.len() as f64;
        if points.is_empty() {
            return CostModel::ZERO;
        }
        let mean_x = points.iter().map(|(x, _)| *x as f64).sum::<f64>() / n;
        let mean_y = points.iter().map(|(_, y)| *y).sum::<f64>() / n;
        let sxx: f64 = points.iter().map(|(x, _)| (*x as f64 - mean_x).powi(2)).sum();
        let sxy: f64 = points.iter().map(|(x, y)| (*x as f64 - mean_x) * (y - mean_y)).sum();
        let b = if sxx > 0.0 { (sxy / sxx).max(0.0) } else { 0.0 };
        CostModel { a_ns: (mean_y - b * mean_x).max(0.0), b_ns_per_byte: b }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_line() {
        let m = CostModel::fit(&[(64, 164.0), (576, 676.0), (1500, 1600.0), (9000, 9100.0)]);
        assert!((m.a_ns - 100.0).abs() < 1e-6 && (m.b_ns_per_byte - 1.0).abs() < 1e-9);
        assert_eq!(m.ns(10), 110.0);
        assert_eq!(CostModel::fit(&[]), CostModel::ZERO);
    }
}
