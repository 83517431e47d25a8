//! The witness-evaluating constraint system.

use crate::cs::{is_one_vartime, is_zero_vartime, Circuit, Cs, CsError, Lc, SizeHint, Var};
use blstrs::Scalar as Fr;
use ff::Field;

/// The result of synthesizing one circuit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Synthesized {
    /// Input assignment, `inputs[0] == 1`.
    pub inputs: Vec<Fr>,
    pub aux: Vec<Fr>,
    /// Evaluations of the A, B, C linear combinations per constraint,
    /// including one trailing `input_i * 1 = 0` constraint per input.
    pub a: Vec<Fr>,
    pub b: Vec<Fr>,
    pub c: Vec<Fr>,
    /// Which aux variables occur in A.
    pub a_aux_density: Vec<bool>,
    /// Which inputs occur in B.
    pub b_input_density: Vec<bool>,
    /// Which aux variables occur in B.
    pub b_aux_density: Vec<bool>,
}

impl Synthesized {
    pub fn num_constraints(&self) -> usize {
        self.a.len()
    }
    /// The heap this value holds, measured: every vector's capacity (not its
    /// length: what the allocator handed out) times its element's size.
    pub fn heap_bytes(&self) -> u64 {
        fn bytes<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        [&self.inputs, &self.aux, &self.a, &self.b, &self.c]
            .into_iter()
            .map(bytes)
            .sum::<u64>()
            + [&self.a_aux_density, &self.b_input_density, &self.b_aux_density]
                .into_iter()
                .map(bytes)
                .sum::<u64>()
    }
    /// Counts of aux values equal to 0, equal to 1, and other.
    pub fn aux_classes(&self) -> (usize, usize, usize) {
        let (mut z, mut o) = (0, 0);
        for v in &self.aux {
            if is_zero_vartime(v) {
                z += 1;
            } else if is_one_vartime(v) {
                o += 1;
            }
        }
        (z, o, self.aux.len() - z - o)
    }
    pub fn hint(&self) -> SizeHint {
        SizeHint {
            constraints: self.a.len() - self.inputs.len(),
            aux: self.aux.len(),
            inputs: self.inputs.len(),
        }
    }
}

/// The engine: a [`Cs`] that evaluates every linear combination on the fly.
pub struct Engine {
    pub out: Synthesized,
}

fn new_vec<T>(cap: usize) -> Vec<T> {
    if cfg!(feature = "presize") {
        Vec::with_capacity(cap)
    } else {
        let _ = cap;
        Vec::new()
    }
}

impl Engine {
    /// A new engine; with the `presize` feature every vector is sized from `hint`.
    pub fn new(hint: SizeHint) -> Self {
        let rows = hint.constraints + hint.inputs;
        let mut out = Synthesized {
            inputs: new_vec(hint.inputs),
            aux: new_vec(hint.aux),
            a: new_vec(rows),
            b: new_vec(rows),
            c: new_vec(rows),
            a_aux_density: new_vec(hint.aux),
            b_input_density: new_vec(hint.inputs),
            b_aux_density: new_vec(hint.aux),
        };
        out.inputs.push(Fr::ONE);
        out.b_input_density.push(false);
        Engine { out }
    }

    #[inline]
    fn value(&self, v: Var) -> Fr {
        match v {
            Var::Input(i) => self.out.inputs[i as usize],
            Var::Aux(i) => self.out.aux[i as usize],
        }
    }

    /// Evaluates `terms` and marks the densities requested.
    #[inline]
    pub fn eval_terms<'t>(&mut self, terms: impl Iterator<Item = (Var, &'t Fr)>, which: Which) -> Fr {
        let mut acc = Fr::ZERO;
        for (v, c) in terms {
            let x = self.value(v);
            // Variable time on witness values, as the split MSMs are: most
            // are 0 or 1 in these circuits, and a product costs ~20 ns.
            if is_one_vartime(c) {
                acc += x;
            } else if is_zero_vartime(&x) {
            } else if is_one_vartime(&x) {
                acc += c;
            } else {
                acc += x * c;
            }
            match (which, v) {
                (Which::A, Var::Aux(i)) => self.out.a_aux_density[i as usize] = true,
                (Which::B, Var::Aux(i)) => self.out.b_aux_density[i as usize] = true,
                (Which::B, Var::Input(i)) => self.out.b_input_density[i as usize] = true,
                _ => {}
            }
        }
        acc
    }

    pub fn push_aux(&mut self, value: Fr) -> Var {
        self.out.aux.push(value);
        self.out.a_aux_density.push(false);
        self.out.b_aux_density.push(false);
        Var::Aux(self.out.aux.len() as u32 - 1)
    }

    pub fn push_input(&mut self, value: Fr) -> Var {
        self.out.inputs.push(value);
        self.out.b_input_density.push(false);
        Var::Input(self.out.inputs.len() as u32 - 1)
    }

    pub fn push_row(&mut self, a: Fr, b: Fr, c: Fr) {
        self.out.a.push(a);
        self.out.b.push(b);
        self.out.c.push(c);
    }

    /// Appends the `input_i * 1 = 0` rows that Groth16 needs and returns the result.
    pub fn finish(mut self) -> Synthesized {
        for i in 0..self.out.inputs.len() {
            let v = self.out.inputs[i];
            self.push_row(v, Fr::ZERO, Fr::ZERO);
        }
        self.out
    }
}

/// Which matrix a linear combination belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Which {
    A,
    B,
    C,
}

impl Cs for Engine {
    fn alloc(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        Ok(self.push_aux(value.ok_or(CsError::MissingValue)?))
    }
    fn alloc_input(&mut self, value: Option<Fr>) -> Result<Var, CsError> {
        Ok(self.push_input(value.ok_or(CsError::MissingValue)?))
    }
    fn enforce(&mut self, a: Lc, b: Lc, c: Lc) {
        let ea = self.eval_terms(a.terms.iter().map(|(v, c)| (*v, c)), Which::A);
        let eb = self.eval_terms(b.terms.iter().map(|(v, c)| (*v, c)), Which::B);
        let ec = self.eval_terms(c.terms.iter().map(|(v, c)| (*v, c)), Which::C);
        self.push_row(ea, eb, ec);
    }
}

/// Synthesizes `circuit` with our engine.
pub fn synthesize<C: Circuit>(circuit: &C, hint: Option<SizeHint>) -> Result<Synthesized, CsError> {
    let hint = hint.unwrap_or_else(|| circuit.size_hint());
    let mut e = Engine::new(hint);
    circuit.synthesize(&mut e)?;
    Ok(e.finish())
}
