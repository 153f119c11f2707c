//! The GPU backend (the `gpu` feature): the kernel (`kernel.cu`) compiled by NVRTC for the
//! GPU found and launched through the CUDA driver API, both libraries loaded at run time
//! (`cudarc`), so that one binary serves every GPU architecture and builds without CUDA.
//! Without a GPU or its driver, [`Gpu::open`] says so in one sentence: the libraries are
//! looked for before `cudarc` is asked for them (it panics where they are missing).

use super::launch::{Board, Launch, Start, THREADS};
use crate::board::spec::Spec;
use crate::count::backtracking::kernel::found::Found;
use crate::error::{Error, Result};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, DriverError, LaunchConfig,
    PushKernelArg,
};
use std::sync::{Arc, Mutex, OnceLock};

// SAFETY: both are `repr(C)` plain data, laid out as `kernel.cu` declares them (the CPU
// build of the kernel checks the layout: `cpu::tests`).
unsafe impl DeviceRepr for Board {}
unsafe impl DeviceRepr for Start {}

/// The kernel's source, compiled for the GPU at run time.
const SOURCE: &str = include_str!("kernel.cu");

/// The most subtrees a launch takes (40 bytes each on the GPU, 16 more for their counts): a
/// batch with more is launched in parts.
const MOST_STARTS: usize = 1 << 22;

/// An open GPU: its context, a stream and the kernel compiled for it.
pub struct Gpu {
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    kernel: CudaFunction,
    /// The GPU's name and compute capability (`NVIDIA H100 80GB HBM3, sm_90`).
    pub name: String,
    /// Its compute capability, as NVRTC names it (`sm_90`).
    arch: String,
    /// Launches go one at a time.
    lock: Mutex<()>,
}

/// Whether a shared library `lib` (`cuda`, `nvrtc`) of one of the names `cudarc` looks for
/// can be loaded.
fn loadable(lib: &str) -> bool {
    cudarc::get_lib_name_candidates(lib).iter().any(|name| {
        let Ok(c) = std::ffi::CString::new(name.as_str()) else {
            return false;
        };
        // SAFETY: dlopen of a library by name, closed again at once.
        unsafe {
            let h = libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if h.is_null() {
                false
            } else {
                libc::dlclose(h);
                true
            }
        }
    })
}

/// NVRTC's options for a kernel of this GPU's architecture `arch`.
fn compile_options(arch: &str) -> cudarc::nvrtc::CompileOptions {
    cudarc::nvrtc::CompileOptions {
        options: vec![
            format!("--gpu-architecture={arch}"),
            "-default-device".into(),
        ],
        ..Default::default()
    }
}

impl Gpu {
    /// Another kernel's `source` compiled for this GPU, and its function `name` loaded (the
    /// quadrant method's leaves prototype).
    pub fn load(&self, source: &str, name: &str) -> Result<CudaFunction> {
        let fail = |what: &str, e: &dyn std::fmt::Debug| Error::Device(format!("{what}: {e:?}"));
        let ptx = cudarc::nvrtc::compile_ptx_with_opts(source, compile_options(&self.arch))
            .map_err(|e| fail(&format!("{name} does not compile for {}", self.arch), &e))?;
        let module = self
            .context
            .load_module(ptx)
            .map_err(|e| fail(&format!("{name} cannot be loaded"), &e))?;
        module
            .load_function(name)
            .map_err(|e| fail(&format!("no {name} in its module"), &e))
    }

    /// The stream launches go to.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The first GPU, opened once for the process (later calls return the same, or the same
    /// refusal).
    pub fn open() -> Result<&'static Gpu> {
        static GPU: OnceLock<std::result::Result<Gpu, String>> = OnceLock::new();
        GPU.get_or_init(Gpu::open_first)
            .as_ref()
            .map_err(|why| Error::Usage(why.clone()))
    }

    fn open_first() -> std::result::Result<Gpu, String> {
        if !loadable("cuda") {
            return Err(
                "no NVIDIA GPU driver found (libcuda.so could not be loaded): count \
                        on a machine with an NVIDIA GPU and its driver, or without --gpu"
                    .into(),
            );
        }
        if !loadable("nvrtc") {
            return Err(
                "the CUDA runtime compiler (libnvrtc) could not be loaded: install \
                        the CUDA toolkit (or add its lib64 to LD_LIBRARY_PATH), or count \
                        without --gpu"
                    .into(),
            );
        }
        let fail = |what: &str, e: &dyn std::fmt::Debug| format!("the GPU {what}: {e:?}");
        let context = CudaContext::new(0).map_err(|e| fail("cannot be opened", &e))?;
        let (major, minor) = context
            .compute_capability()
            .map_err(|e| fail("does not say its architecture", &e))?;
        let arch = format!("sm_{major}{minor}");
        let name = context.name().unwrap_or_else(|_| "an NVIDIA GPU".into());
        let ptx = cudarc::nvrtc::compile_ptx_with_opts(SOURCE, compile_options(&arch))
            .map_err(|e| fail(&format!("kernel does not compile for {arch}"), &e))?;
        let module = context
            .load_module(ptx)
            .map_err(|e| fail("kernel cannot be loaded", &e))?;
        let kernel = module
            .load_function("nq_count")
            .map_err(|e| fail("kernel has no nq_count", &e))?;
        Ok(Gpu {
            stream: context.default_stream(),
            context,
            kernel,
            name: format!("{name}, {arch}"),
            arch,
            lock: Mutex::new(()),
        })
    }

    /// The completions of `specs`, each expanded to `depth` rows on the host and its
    /// subtrees counted on the GPU, a thread each.
    pub fn count(&self, specs: &[Spec], depth: usize) -> Result<Vec<Found>> {
        let l = Launch::of(specs, depth);
        if l.starts.is_empty() {
            return Ok(l.finish(&[], &[]));
        }
        let (solutions, nodes) = self.run(&l).map_err(|e| Error::Device(format!("{e:?}")))?;
        Ok(l.finish(&solutions, &nodes))
    }

    /// The launches of `l`: each start's solutions and nodes.
    fn run(&self, l: &Launch) -> std::result::Result<(Vec<u64>, Vec<u64>), DriverError> {
        let _one = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let boards = self.stream.clone_htod(&l.boards)?;
        let (mut solutions, mut nodes) = (Vec::new(), Vec::new());
        for part in l.starts.chunks(MOST_STARTS) {
            let (s, n) = self.launch(&boards, part)?;
            solutions.extend(s);
            nodes.extend(n);
        }
        Ok((solutions, nodes))
    }

    /// One launch over `part` of the starts, the boards on the GPU already.
    fn launch(
        &self,
        boards: &CudaSlice<Board>,
        part: &[Start],
    ) -> std::result::Result<(Vec<u64>, Vec<u64>), DriverError> {
        let count = part.len() as u32;
        let s = &self.stream;
        let starts = s.clone_htod(part)?;
        let mut solutions = s.alloc_zeros::<u64>(part.len())?;
        let mut nodes = s.alloc_zeros::<u64>(part.len())?;
        let cfg = LaunchConfig {
            grid_dim: (count.div_ceil(THREADS), 1, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = s.launch_builder(&self.kernel);
        launch
            .arg(boards)
            .arg(&starts)
            .arg(&count)
            .arg(&mut solutions)
            .arg(&mut nodes);
        // SAFETY: the kernel's parameters are these, in this order (`nq_count` in
        // `kernel.cu`); it reads `count` starts and the boards they name, and writes
        // `count` solutions and nodes.
        unsafe { launch.launch(cfg) }?;
        Ok((s.clone_dtoh(&solutions)?, s.clone_dtoh(&nodes)?))
    }
}
