//! Tests of the config: the shipped `phaseline.toml` and the rules its keys follow.

use super::*;

/// The message of a config refused.
fn refusal(parsed: Result<Config, HarnessError>) -> String {
    parsed.unwrap_err().to_string()
}

#[test]
fn repository_config_is_valid() {
    let cfg = Config::parse(include_str!("../../../phaseline.toml")).expect("phaseline.toml parses");
    let all = &cfg.variants["all"];
    assert_eq!(all.len(), 6);
    assert!(
        !all.iter().any(|f| f == "selftest-slow"),
        "self-test feature is never in `all`"
    );
    assert!(cfg.variants["baseline"].is_empty());
    // `all` is every suite a plain machine runs; the GPU suite only when named.
    let all: Vec<String> = cfg
        .select_suites(&["all".into()])
        .unwrap()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(all, ["e2e", "synth"]);
    assert_eq!(cfg.select_suites(&["gpu-e2e".into()]).unwrap()[0].0, "gpu-e2e");
    let both = cfg.select_suites(&["all".into(), "gpu-e2e".into()]).unwrap();
    assert_eq!(both.len(), 3);
    // The GPU nightly's suite: warm proofs, three a process, its own thresholds
    // (device-timed kernels judged far more finely than the host's CPU phases).
    let night = &cfg.suites["gpu-e2e"];
    assert_eq!((night.inner_warmup, night.inner_reps), (1, 3));
    assert!(night.thresholds["msm_h"] < night.thresholds["synthesis"]);
    let full = &cfg.suites["gpu-32g"];
    assert_eq!(full.params_store, Some(phaseline_record::ParamsStore::Memory));
    assert_eq!(full.mem_budget.as_deref(), Some("60GiB"));
    assert!(!full.in_all);
}

#[test]
fn a_suite_may_carry_its_own_thresholds_of_known_phases() {
    let base = include_str!("../../../phaseline.toml");
    let with = |table: &str| {
        Config::parse(&format!(
            "{base}\n[suites.own]\nmode = \"prove\"\ncircuits = [\"tiny\"]\nreps = 3\ntimeout_s = 9\n{table}\n"
        ))
    };
    let cfg = with("[suites.own.thresholds]\ndefault = 0.06\nsynthesis = 0.2").unwrap();
    let opts = crate::compare::CompareOptions::from_config(&cfg, false);
    let t = opts.thresholds.for_suite("own").unwrap();
    assert_eq!((t.relative("synthesis"), t.relative("msm_h")), (0.2, 0.06));
    assert_eq!(
        opts.thresholds.relative("synthesis"),
        cfg.thresholds.relative("synthesis")
    );
    // A bisect of that suite judges on its thresholds; a --threshold given still wins.
    let bisect = opts.clone().for_suite("own");
    assert_eq!(bisect.thresholds.relative("synthesis"), 0.2);
    let given = bisect.with_threshold("synthesis", Some(0.07));
    assert_eq!(given.thresholds.relative("synthesis"), 0.07);
    let e = refusal(with("[suites.own.thresholds]\nsynthesys = 0.2"));
    assert!(e.contains("suites.own.thresholds.synthesys"), "{e}");
    let e = refusal(with("[suites.own.thresholds]\nsynthesis = 1.5"));
    assert!(e.contains("suites.own.thresholds.synthesis"), "{e}");
    let e = refusal(with("inner_reps = 0"));
    assert!(e.contains("suites.own.inner_reps"), "{e}");
    let e = refusal(with("inner_reps = 3\ninterleave = \"block\""));
    assert!(e.contains("suites.own.inner_reps"), "{e}");
}

#[test]
fn setup_suites_measure_one_setup_per_process() {
    let base = include_str!("../../../phaseline.toml");
    let cfg = Config::parse(base).expect("phaseline.toml parses");
    let (cpu, gpu) = (&cfg.suites["setup"], &cfg.suites["gpu-setup"]);
    assert_eq!((cpu.mode, cpu.backend), (Mode::Setup, Backend::Cpu));
    assert_eq!((gpu.mode, gpu.backend), (Mode::Setup, Backend::Cuda));
    assert_eq!(gpu.circuits, ["medium", "large", "xl"]);
    assert!(!cpu.in_all && !gpu.in_all);
    assert_eq!(cfg.runners["gpu-cpu"].backend, Some(Backend::Cpu));
    let with = |line: &str| {
        let text = base.replace(
            "[suites.setup]\nmode = \"setup\"\n",
            &format!("[suites.setup]\nmode = \"setup\"\n{line}\n"),
        );
        assert_ne!(text, base);
        Config::parse(&text).unwrap_err().to_string()
    };
    let e = with("partitions = [1, 2]");
    assert!(
        e.contains("suites.setup.partitions") && e.contains("one circuit"),
        "{e}"
    );
    let e = with("inner_warmup = 1");
    assert!(e.contains("suites.setup.inner_warmup"), "{e}");
    let bad_name = base.replace(
        "circuits = [\"medium\", \"large\", \"xl\"]",
        "circuits = [\"medium\", \"la rge\"]",
    );
    assert_ne!(bad_name, base);
    let e = Config::parse(&bad_name).unwrap_err().to_string();
    assert!(
        e.contains("circuits") && e.contains("`la rge` is not a circuit name"),
        "{e}"
    );
    let e = with("params_store = \"memory\"");
    assert!(
        e.contains("suites.setup.params_store") && e.contains("`prove` suites only"),
        "{e}"
    );
    let e = with("mem_budget = \"4GiB\"");
    assert!(
        e.contains("suites.setup.mem_budget") && e.contains("`prove` suites only"),
        "{e}"
    );
    let text = base.replace(
        "timeout_s = 120\ninterleave = \"alternate\"\nin_all = false",
        "timeout_s = 120\ninterleave = \"block\"\nin_all = false",
    );
    assert_ne!(text, base);
    let e = Config::parse(&text).unwrap_err().to_string();
    assert!(e.contains("suites.setup.interleave") && e.contains("alternate"), "{e}");
}

#[test]
fn unknown_keys_are_named() {
    let text = include_str!("../../../phaseline.toml").replace("[build]", "[build]\ncolour = 1");
    let e = Config::parse(&text).unwrap_err().to_string();
    assert!(e.contains("colour"), "{e}");
    let text = include_str!("../../../phaseline.toml").replace("alpha = 0.05", "alpha = 2");
    assert!(Config::parse(&text).unwrap_err().to_string().contains("`alpha`"));
}

#[test]
fn nightly_table_defaults_and_gpu_entries() {
    let cfg = Config::parse(include_str!("../../../phaseline.toml")).expect("phaseline.toml parses");
    assert_eq!(cfg.nightly.suites, ["synth-cpu", "e2e"]);
    assert_eq!(cfg.suites["synth-cpu"].clock, crate::model::Clock::Cpu);
    assert_eq!(cfg.suites["synth"].clock, crate::model::Clock::Wall);
    assert_eq!(cfg.nightly.variants, ["baseline", "all"]);
    assert_eq!(cfg.nightly.baseline, "nightly");
    let gpu = &cfg.suites["gpu-e2e"];
    assert_eq!((gpu.mode.as_str(), gpu.backend.as_str()), ("prove", "cuda"));
    // The GPU phases come from the protocol, not from a list repeated in the config.
    assert!(gpu.required_phases.is_empty(), "{:?}", gpu.required_phases);
    let need = phaseline_record::required(gpu.mode, gpu.backend, phaseline_record::Requires::default());
    for p in ["msm_prep", "h2d", "batch_add", "tail_msm", "msm_b_g2", "msm_l"] {
        assert!(need.contains(&p), "a cuda record need not carry {p}");
    }
    assert_eq!(cfg.suites["real"].required_phases, ["verify_filecoin"]);
    let anchor = &cfg.runners["supraseal"];
    assert!(anchor.path.is_some() && anchor.features.is_empty());
    assert_eq!(cfg.runners["bellperson"].backend, Some(Backend::Bellperson));
    assert_eq!(cfg.variants["gpu"], ["cuda"]);
    let mut all = cfg.variants["all"].clone();
    all.insert(0, "cuda".into());
    assert_eq!(cfg.variants["gpu-all"], all);
    // Without the table the defaults apply.
    let start = include_str!("../../../phaseline.toml")
        .find("[nightly]")
        .expect("table");
    let cfg = Config::parse(&include_str!("../../../phaseline.toml")[..start]).expect("parses");
    assert_eq!(cfg.nightly, Nightly::default());
}

#[test]
fn bad_nightly_tables_are_refused_naming_the_key() {
    let base = include_str!("../../../phaseline.toml");
    let start = base.find("[nightly]").expect("table");
    let with = |table: &str| {
        Config::parse(&format!("{}{table}", &base[..start]))
            .unwrap_err()
            .to_string()
    };
    let e = with("[nightly]\nsuites = [\"synth\"]\nschedule = \"02:00\"\n");
    assert!(e.contains("schedule"), "{e}");
    let e = with("[nightly]\nsuites = [\"nope\"]\n");
    assert!(e.contains("nightly.suites") && e.contains("nope"), "{e}");
    let e = with("[nightly]\nsuites = []\n");
    assert!(e.contains("nightly.suites"), "{e}");
    let e = with("[nightly]\nvariants = []\n");
    assert!(e.contains("nightly.variants"), "{e}");
    let e = with("[nightly]\nbaseline = \"a/b\"\n");
    assert!(e.contains("nightly.baseline"), "{e}");
    let e = with("[nightly]\nsuites = \"synth\"\n");
    assert!(e.contains("invalid config"), "{e}");
}

#[test]
fn history_table_path_and_unknown_keys() {
    let base = include_str!("../../../phaseline.toml");
    let cfg = Config::parse(base).expect("parses");
    assert_eq!(cfg.history.path.as_deref(), Some("history/nights.sqlite"));
    let start = base.find("[history]").expect("table");
    let cfg = Config::parse(&base[..start]).expect("parses");
    assert_eq!(cfg.history, HistoryConfig::default());
    let e = Config::parse(&format!("{}[history]\npath = \"h.db\"\nkeep = 3\n", &base[..start]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("keep"), "{e}");
}

/// A GPU host class's table is laid over the suite's own, only on runs
/// measured with that GPU model; its keys are checked like the suite's.
#[test]
fn a_suite_may_carry_a_table_per_gpu_model() {
    use crate::testkit::SyntheticRun;
    let base = include_str!("../../../phaseline.toml");
    let with = |table: &str| {
        Config::parse(&format!(
            "{base}\n[suites.own]\nmode = \"prove\"\ncircuits = [\"tiny\"]\nreps = 3\ntimeout_s = 9\n\
             [suites.own.thresholds]\ndefault = 0.06\nmsm_h = 0.02\n{table}\n"
        ))
    };
    let cfg = with("[suites.own.gpu_thresholds.\"NVIDIA H200\"]\nmsm_h = 0.15").unwrap();
    let opts = crate::compare::CompareOptions::from_config(&cfg, false);
    let on = |model: Option<&str>| opts.thresholds.for_gpu(model).for_suite("own").unwrap();
    assert_eq!(
        on(Some("nvidia h200")).relative("msm_h"),
        0.15,
        "matched without regard to case"
    );
    assert_eq!(
        on(Some("NVIDIA H200")).relative("synthesis"),
        0.06,
        "the suite's default stays"
    );
    assert_eq!(on(Some("NVIDIA H100 80GB HBM3")).relative("msm_h"), 0.02);
    assert_eq!(on(None).relative("msm_h"), 0.02);

    // A comparison of runs measured with that GPU judges on its table.
    let run = |id: &str, seed: u64, model: &str| {
        let mut r = SyntheticRun::new(id, seed)
            .variant("gpu", &["cuda"])
            .case(crate::testkit::synthetic::case("own", "tiny"))
            .phase("msm_h", 100.0, 0.01)
            .reps(8)
            .build();
        r.testbed.gpu_model = Some(model.into());
        r
    };
    let thr = |model: &str| {
        let c = crate::compare::compare_runs(&run("a", 1, model), &run("b", 2, model), &opts).unwrap();
        c.rows.iter().find(|r| r.phase == "msm_h").unwrap().threshold
    };
    assert_eq!(thr("NVIDIA H200"), 0.15);
    assert_eq!(thr("NVIDIA H100 80GB HBM3"), 0.02);

    let e = refusal(with("[suites.own.gpu_thresholds.\"NVIDIA H200\"]\nmsm_hh = 0.15"));
    assert!(e.contains("suites.own.gpu_thresholds.\"NVIDIA H200\".msm_hh"), "{e}");
    let e = refusal(with("[suites.own.gpu_thresholds.\" \"]\nmsm_h = 0.15"));
    assert!(e.contains("name a GPU model"), "{e}");
    let e = refusal(with(
        "[suites.own.gpu_thresholds.\"NVIDIA H200\"]\nmsm_h = 0.15\n[suites.own.gpu_thresholds.\"nvidia h200\"]\nmsm_h = 0.2",
    ));
    assert!(e.contains("the same GPU model as"), "{e}");
}
