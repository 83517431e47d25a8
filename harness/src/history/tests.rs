//! Tests of the history store: concurrent writers, re-imports, bad files.

use super::store::*;
use crate::model::Run;
use crate::testkit::synthetic::SyntheticRun;
use std::path::Path;

fn run(id: &str, seed: u64) -> Run {
    SyntheticRun::new(id, seed)
        .variant("baseline", &[])
        .phase("synthesis", 50.0, 0.01)
        .phase("msm_l", 40.0, 0.01)
        .reps(4)
        .build()
}

#[test]
fn two_threads_import_at_once_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite");
    let writers: Vec<_> = (0..2u64)
        .map(|w| {
            let db = db.clone();
            std::thread::spawn(move || {
                // Each writer its own connection, as two runners would have.
                let mut h = History::open(&db).unwrap();
                for i in 0..20u64 {
                    let r = run(&format!("w{w}-run{i:02}"), w * 100 + i);
                    assert!(matches!(h.import(&r, Path::new("x")).unwrap(), Imported::Added { .. }));
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let h = History::open(&db).unwrap();
    let runs = h.runs().unwrap();
    assert_eq!(runs.len(), 40);
    let per_run: usize = run("x", 0).samples.iter().map(|s| s.phases.len()).sum();
    assert!(runs.iter().all(|r| r.rows == per_run), "{runs:?}");
    assert_eq!(h.points().unwrap().len(), 40 * per_run);
}

#[test]
fn same_run_twice_is_skipped_and_another_under_its_id_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("sub/h.sqlite")).unwrap();
    let r = run("r1", 1);
    assert!(matches!(h.import(&r, Path::new("a")).unwrap(), Imported::Added { .. }));
    assert_eq!(h.import(&r, Path::new("b")).unwrap(), Imported::AlreadyPresent);
    let e = h.import(&run("r1", 2), Path::new("c")).unwrap_err().to_string();
    assert!(e.contains("already held"), "{e}");
    assert_eq!(h.runs().unwrap().len(), 1);
}

#[test]
fn not_a_database_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("junk");
    std::fs::write(&p, vec![b'x'; 4096]).unwrap();
    let e = History::open(&p).err().expect("refused").to_string();
    assert!(e.contains("junk"), "{e}");
}
