//! The history database: one SQLite file holding every imported run (keyed by
//! run id) and every sample's phase times. Safe under concurrent writers: WAL
//! journal, a busy timeout, and each import one immediate transaction, so two
//! runners finishing at once both land, one after the other.

use super::rows::{Point, RunRow};
use crate::error::HarnessError;
use crate::model::{Case, Run};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Schema version kept in `PRAGMA user_version` (2: samples carry their case's clock).
const SCHEMA_VERSION: i64 = 2;
/// How long a writer waits for another one to finish.
const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    testbed TEXT NOT NULL,
    git_commit TEXT NOT NULL,
    dirty INTEGER NOT NULL,
    started_utc TEXT NOT NULL,
    imported_utc TEXT NOT NULL,
    source TEXT NOT NULL,
    mock INTEGER NOT NULL,
    incomplete TEXT
);
CREATE TABLE IF NOT EXISTS samples (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    variant TEXT NOT NULL,
    features TEXT NOT NULL,
    suite TEXT NOT NULL,
    circuit TEXT NOT NULL,
    partitions INTEGER NOT NULL,
    backend TEXT NOT NULL,
    clock TEXT NOT NULL DEFAULT 'wall',
    rep INTEGER NOT NULL,
    warmup INTEGER NOT NULL,
    phase TEXT NOT NULL,
    ms REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS samples_run ON samples(run_id);
CREATE INDEX IF NOT EXISTS runs_testbed ON runs(testbed, started_utc);
";

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Imported {
    /// The run is new: its sample rows were added.
    Added { rows: usize },
    /// The same run (same id, same content) was already there.
    AlreadyPresent,
}

/// An open history database.
pub struct History {
    conn: Connection,
    path: PathBuf,
}

fn db_err(path: &Path, what: &str) -> impl Fn(rusqlite::Error) -> HarnessError {
    let (path, what) = (path.display().to_string(), what.to_string());
    move |e| HarnessError::Data(format!("history {path}: {what}: {e}"))
}

/// FNV-1a of the run's JSON: tells a re-import of the same run from another run with its id.
fn digest(run: &Run) -> String {
    let bytes = serde_json::to_vec(run).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Whether SQLite refused for a lock another connection holds.
fn busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

/// Switches the database to the WAL journal and returns the mode it is in. Two processes
/// opening one new database at once can get "database is locked" here without SQLite
/// calling the busy handler (the switch needs the file to itself), so a busy answer is
/// retried until [`BUSY_TIMEOUT`], as every other statement waits.
fn wal_mode(conn: &Connection, path: &Path) -> Result<String, HarnessError> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
            Ok(mode) => return Ok(mode),
            Err(e) if busy(&e) && std::time::Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(db_err(path, "not a history database (cannot set its journal)")(e)),
        }
    }
}

impl History {
    /// Opens (creating when absent, with its directory) the database at `path`.
    pub fn open(path: &Path) -> Result<History, HarnessError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| HarnessError::io(format!("cannot create {}", dir.display()), e))?;
        }
        let conn = Connection::open(path).map_err(db_err(path, "cannot open"))?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(db_err(path, "busy timeout"))?;
        let mode = wal_mode(&conn, path)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(HarnessError::Data(format!(
                "history {}: journal mode stays `{mode}`, not WAL (a file system without shared memory?)",
                path.display()
            )));
        }
        let mut h = History {
            conn,
            path: path.to_path_buf(),
        };
        h.migrate()?;
        Ok(h)
    }

    fn migrate(&mut self) -> Result<(), HarnessError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db_err(&path, "cannot lock"))?;
        let v: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(db_err(&path, "not a history database"))?;
        if v > SCHEMA_VERSION {
            return Err(HarnessError::Data(format!(
                "history {}: schema version {v} is newer than this harness's ({SCHEMA_VERSION})",
                path.display()
            )));
        }
        tx.execute_batch(SCHEMA)
            .map_err(db_err(&path, "not a history database"))?;
        if v == 1 {
            // Version 1 held wall-clock samples only.
            tx.execute_batch("ALTER TABLE samples ADD COLUMN clock TEXT NOT NULL DEFAULT 'wall';")
                .map_err(db_err(&path, "cannot add the clock column"))?;
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)
            .map_err(db_err(&path, "cannot write the schema version"))?;
        tx.commit().map_err(db_err(&path, "cannot create the schema"))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `run` (read from `source`) in one transaction; the same run again is skipped,
    /// another run under an id already held is refused.
    pub fn import(&mut self, run: &Run, source: &Path) -> Result<Imported, HarnessError> {
        let path = self.path.clone();
        let d = digest(run);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(db_err(&path, "cannot lock for writing"))?;
        let held: Option<String> = tx
            .query_row("SELECT digest FROM runs WHERE run_id = ?1", [&run.id], |r| r.get(0))
            .optional()
            .map_err(db_err(&path, "cannot read"))?;
        if let Some(held) = held {
            return if held == d {
                Ok(Imported::AlreadyPresent)
            } else {
                Err(HarnessError::Exists(format!(
                    "history {}: run id {} is already held with other samples; refusing to mix two runs under one id",
                    path.display(),
                    run.id
                )))
            };
        }
        let p = &run.provenance;
        tx.execute(
            "INSERT INTO runs (run_id, digest, testbed, git_commit, dirty, started_utc, imported_utc, source, mock, incomplete)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                run.id,
                d,
                run.testbed.key,
                p.git_commit,
                p.git_dirty,
                p.started_utc,
                crate::provenance::now_utc(),
                source.display().to_string(),
                run.has_mock_samples(),
                run.incomplete,
            ],
        )
        .map_err(db_err(&path, "cannot add the run"))?;
        let mut rows = 0;
        {
            let mut ins = tx
                .prepare(
                    "INSERT INTO samples (run_id, variant, features, suite, circuit, partitions, backend, clock, rep, warmup, phase, ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                )
                .map_err(db_err(&path, "cannot add samples"))?;
            for s in run.samples.iter().filter(|s| s.ok) {
                let features = run
                    .variants
                    .iter()
                    .find(|v| v.variant.name == s.variant)
                    .map(|v| v.variant.feature_list())
                    .unwrap_or_default();
                for (phase, ms) in &s.phases {
                    ins.execute(params![
                        run.id,
                        s.variant,
                        features,
                        s.case.suite,
                        s.case.circuit,
                        s.case.partitions as i64,
                        s.case.backend.as_str(),
                        s.case.clock.as_str(),
                        s.rep as i64,
                        s.warmup,
                        phase,
                        ms
                    ])
                    .map_err(db_err(&path, "cannot add a sample"))?;
                    rows += 1;
                }
            }
        }
        tx.commit().map_err(db_err(&path, "cannot commit the import"))?;
        Ok(Imported::Added { rows })
    }

    /// The runs held, oldest first (by start time, then id).
    pub fn runs(&self) -> Result<Vec<RunRow>, HarnessError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT r.run_id, r.testbed, r.git_commit, r.dirty, r.started_utc, r.source,
                        (SELECT COUNT(*) FROM samples s WHERE s.run_id = r.run_id)
                 FROM runs r ORDER BY r.started_utc, r.run_id",
            )
            .map_err(db_err(&self.path, "cannot read"))?;
        let rows = st
            .query_map([], |r| {
                Ok(RunRow {
                    run_id: r.get(0)?,
                    testbed: r.get(1)?,
                    commit: r.get(2)?,
                    dirty: r.get(3)?,
                    started_utc: r.get(4)?,
                    source: r.get(5)?,
                    rows: r.get::<_, i64>(6)? as usize,
                })
            })
            .map_err(db_err(&self.path, "cannot read"))?;
        rows.collect::<Result<_, _>>()
            .map_err(db_err(&self.path, "cannot read"))
    }

    /// Every stored phase time, oldest run first.
    pub fn points(&self) -> Result<Vec<Point>, HarnessError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT r.run_id, r.testbed, r.git_commit, r.started_utc, s.variant, s.features,
                        s.suite, s.circuit, s.partitions, s.backend, s.rep, s.warmup, s.phase, s.ms, s.clock
                 FROM samples s JOIN runs r ON r.run_id = s.run_id
                 ORDER BY r.started_utc, r.run_id, s.variant, s.suite, s.circuit, s.phase, s.rep",
            )
            .map_err(db_err(&self.path, "cannot read"))?;
        let rows = st
            .query_map([], |r| {
                Ok(Point {
                    run_id: r.get(0)?,
                    testbed: r.get(1)?,
                    commit: r.get(2)?,
                    started_utc: r.get(3)?,
                    variant: r.get(4)?,
                    features: r.get(5)?,
                    case: Case {
                        suite: r.get(6)?,
                        circuit: r.get(7)?,
                        partitions: r.get::<_, i64>(8)? as usize,
                        backend: r.get::<_, String>(9)?.parse().map_err(|e: String| {
                            rusqlite::Error::FromSqlConversionFailure(9, rusqlite::types::Type::Text, e.into())
                        })?,
                        clock: r.get::<_, String>(14)?.parse().map_err(|e: String| {
                            rusqlite::Error::FromSqlConversionFailure(14, rusqlite::types::Type::Text, e.into())
                        })?,
                    },
                    rep: r.get::<_, i64>(10)? as usize,
                    warmup: r.get(11)?,
                    phase: r.get(12)?,
                    ms: r.get(13)?,
                })
            })
            .map_err(db_err(&self.path, "cannot read"))?;
        rows.collect::<Result<_, _>>()
            .map_err(db_err(&self.path, "cannot read"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version-1 database (no clock column) opens as version 2, its samples
    /// on the wall clock.
    #[test]
    fn a_version_one_database_gains_the_clock_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.sqlite");
        {
            let c = Connection::open(&path).unwrap();
            let v1 = SCHEMA.replace("    clock TEXT NOT NULL DEFAULT 'wall',\n", "");
            assert_ne!(v1, SCHEMA);
            c.execute_batch(&v1).unwrap();
            c.execute(
                "INSERT INTO runs VALUES ('r1', 'd', 'tb', 'abc', 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'src', 0, NULL)",
                [],
            )
            .unwrap();
            c.execute(
                "INSERT INTO samples (run_id, variant, features, suite, circuit, partitions, backend, rep, warmup, phase, ms)
                 VALUES ('r1', 'baseline', '', 'synth', 'tiny', 1, 'cpu', 0, 0, 'synthesis', 12.5)",
                [],
            )
            .unwrap();
            c.pragma_update(None, "user_version", 1).unwrap();
        }
        let h = History::open(&path).unwrap();
        let v: i64 = h.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(v, SCHEMA_VERSION);
        let pts = h.points().unwrap();
        assert_eq!(pts.len(), 1);
        assert_eq!((pts[0].case.clock, pts[0].ms), (crate::model::Clock::Wall, 12.5));
        drop(h);
        // Opening again does not add the column twice.
        History::open(&path).unwrap();
    }
}
