//! The report's measurer: the bench module's subjects, timing loop and
//! clock (one timing loop for the whole CLI), plus subjects for the
//! library's other MACs by name and for Badger's table 1.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::bench::{self, Subject};

use super::model::{Machine, Missing, Row};
use super::plan::{Impl, Job};
use super::subjects;
use super::{Measurer, utc_now};

/// One (algorithm, implementation) and the sizes it is measured at.
struct Planned {
    alg: String,
    imp: Impl,
    sizes: BTreeSet<usize>,
    subject: Option<Box<dyn Subject>>,
}

/// Measures through the bench module.
#[derive(Default)]
pub struct Live {
    planned: Vec<Planned>,
    notes: Vec<String>,
    clocks: Vec<f64>,
}

fn impl_of(alg: &str, implementation: &str) -> Option<Impl> {
    match (alg, implementation) {
        ("read-limit", _) => Some(Impl::ReadLimit),
        (_, "fastmac") => Some(Impl::Fastmac),
        (_, "nettle") => Some(Impl::Nettle),
        (_, "rustcrypto") => Some(Impl::RustCrypto),
        _ => None,
    }
}

impl Measurer for Live {
    fn machine(&mut self) -> Machine {
        let mut described = bench::Machine::describe(self.notes.clone());
        for &ghz in &self.clocks {
            described.record_clock(Some(ghz));
        }
        // A clock measurement that was descheduled reads low, never high
        // (the add chain cannot run faster than the core), so on a shared
        // machine the highest reading is the truest.
        let ghz = self.clocks.iter().copied().reduce(f64::max);
        let clock_method = match described.core_clock_range_ghz {
            Some([lo, hi]) => format!(
                "{}; every cycle figure here uses the highest of the run's {} readings (range {lo:.2}-{hi:.2} GHz), since a descheduled reading is low; timer: {}",
                bench::clock::METHOD,
                self.clocks.len(),
                described.timer
            ),
            None => format!("{}; timer: {}", bench::clock::METHOD, described.timer),
        };
        described.core_clock_ghz = ghz;
        described.clock_method = clock_method.clone();
        Machine {
            cpu: described.cpu.clone(),
            cpus: described.logical_cpus,
            backend: described.fastmac_backend.clone(),
            clock_ghz: ghz,
            clock_method,
            date: utc_now(),
            nettle: described.nettle.clone(),
            run: String::new(),
            json: serde_json::to_value(&described).unwrap_or_default(),
        }
    }

    fn known_algorithms(&self) -> Vec<String> {
        let mut names: Vec<String> = fastmac::Algorithm::ALL.iter().map(|a| a.info().name.to_owned()).collect();
        names.extend(super::gears::names());
        names
    }

    fn prepare(&mut self, jobs: &[Job]) -> Vec<Missing> {
        let registry = bench::subjects::registry();
        let mut missing = Vec::new();
        let mut groups: Vec<(String, Impl, BTreeSet<usize>)> = Vec::new();
        for job in jobs {
            match groups.iter_mut().find(|g| g.0 == job.alg && g.1 == job.imp) {
                Some(group) => {
                    group.2.insert(job.size);
                }
                None => groups.push((job.alg.clone(), job.imp, BTreeSet::from([job.size]))),
            }
        }
        for (alg, imp, sizes) in groups {
            let entry = registry.iter().find(|e| e.alg == alg && impl_of(e.alg, e.implementation) == Some(imp));
            let made = match entry {
                Some(entry) => (entry.make)(),
                None if imp == Impl::Fastmac => subjects::by_name(&alg),
                None => Err(format!("no {} comparator in this build", imp.name())),
            };
            match made {
                Ok(subject) => self.planned.push(Planned { alg, imp, sizes, subject: Some(subject) }),
                Err(reason) => {
                    let note = format!("{alg} ({}) not measured: {reason}", imp.name());
                    if !self.notes.contains(&note) {
                        self.notes.push(note);
                    }
                    for &size in &sizes {
                        missing.push(Missing { job: Job { alg: alg.clone(), imp, size }, reason: reason.clone() });
                    }
                }
            }
        }
        missing
    }

    fn measure_size(&mut self, size: usize, per_job: Duration) -> Vec<Row> {
        // The subjects of this size are timed together, interleaved round
        // by round, so load from other processes falls on all alike.
        let chosen: Vec<usize> = (0..self.planned.len()).filter(|&i| self.planned[i].sizes.contains(&size)).collect();
        let mut batch: Vec<Box<dyn Subject>> =
            chosen.iter().filter_map(|&i| self.planned[i].subject.take()).collect();
        let ghz = bench::clock::core_ghz();
        self.clocks.extend(ghz);
        let measured = bench::measure::measure_size(&mut batch, size, per_job, ghz);
        for (&i, subject) in chosen.iter().zip(batch) {
            self.planned[i].subject = Some(subject);
        }
        measured
            .into_iter()
            .filter_map(|row| {
                let imp = impl_of(&row.alg, &row.implementation)?;
                let planned = self.planned.iter().find(|p| p.alg == row.alg && p.imp == imp)?;
                Some(Row {
                    alg: planned.alg.clone(),
                    imp,
                    size: row.size,
                    ns_per_msg: row.ns_per_msg,
                    gb_per_s: row.gb_per_s,
                    cycles_per_byte: row.cycles_per_byte.filter(|c| c.is_finite()),
                    json: serde_json::to_value(&row).unwrap_or_default(),
                })
            })
            .collect()
    }
}
