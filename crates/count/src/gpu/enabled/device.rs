//! The first GPU, opened once: the backtracking kernel (`kernel.cu`) compiled by NVRTC for it
//! and launched through the CUDA driver API. Without a GPU or its driver, [`Gpu::open`] says so in one sentence: the libraries are
//! looked for before `cudarc` is asked for them (it panics where they are missing).

use crate::backtracking::kernel::found::Found;
use crate::gpu::launch::{GpuSearch, Launch, LaunchBoard, Start, THREADS, THREADS32};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, DriverError, LaunchConfig,
    PushKernelArg,
};
use nqueens_board::error::{Error, Result};
use nqueens_board::spec::Spec;
use std::sync::{Arc, Mutex, OnceLock};

// SAFETY: both are `repr(C)` plain data, laid out as `kernel.cu` declares them (the CPU
// build of the kernel checks the layout: `cpu::tests`).
unsafe impl DeviceRepr for LaunchBoard {}
unsafe impl DeviceRepr for Start {}

/// The kernel's source, compiled for the GPU at run time.
const SOURCE: &str = include_str!("../kernel.cu");

/// The most subtrees per launch takes (40 bytes each on the GPU, 16 more for their counts): a
/// batch with more is launched in parts.
const MOST_STARTS: usize = 1 << 22;

/// An open GPU: its context, a stream and the kernel compiled for it.
pub struct Gpu {
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    kernel: CudaFunction,
    /// The second search (`nq_count32`).
    kernel32: CudaFunction,
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

/// The most blocks per launch of the second search starts: its threads take every start in
/// turn, so a few per SM keep the GPU full.
const MOST_BLOCKS32: u32 = 2048;

/// NVRTC's options for a kernel of this GPU's architecture `arch`.
fn compile_options(arch: &str) -> cudarc::nvrtc::CompileOptions {
    cudarc::nvrtc::CompileOptions {
        // `--device-int128`: the backtracking search keeps its diagonals in 128-bit integers
        // (NVRTC 11.5 and later).
        options: vec![
            format!("--gpu-architecture={arch}"),
            "-default-device".into(),
            "--device-int128".into(),
        ],
        ..Default::default()
    }
}

/// The kernels the device path compiles: each file's name and source.
const KERNELS: [(&str, &str); 2] = [
    ("kernel.cu", SOURCE),
    ("leaves.cu", include_str!("../leaves.cu")),
];

/// Every kernel compiled by NVRTC for the architecture `arch` (`sm_90`) with the options a GPU
/// of it gets: each file's name and its PTX. Needs `libnvrtc` only, no GPU or driver.
pub fn compile_for(arch: &str) -> Result<Vec<(&'static str, String)>> {
    if !loadable("nvrtc") {
        return Err(Error::Usage(
            "the CUDA runtime compiler (libnvrtc) could not be loaded: install it (pip install \
             nvidia-cuda-nvrtc-cu12, or the CUDA toolkit) and add its lib folder to \
             LD_LIBRARY_PATH"
                .into(),
        ));
    }
    KERNELS
        .iter()
        .map(|&(file, source)| {
            let ptx = cudarc::nvrtc::compile_ptx_with_opts(source, compile_options(arch)).map_err(
                |e| Error::Device(format!("{file} does not compile for {arch}: {}", log(e))),
            )?;
            Ok((file, ptx.to_src()))
        })
        .collect()
}

/// What NVRTC said of a failed compile: its log, as the compiler wrote it.
fn log(e: cudarc::nvrtc::CompileError) -> String {
    match e {
        cudarc::nvrtc::CompileError::CompileError { log, .. } => {
            format!("\n{}", log.to_string_lossy())
        }
        other => format!("{other:?}"),
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
        let kernel32 = module
            .load_function("nq_count32")
            .map_err(|e| fail("kernel has no nq_count32", &e))?;
        Ok(Gpu {
            stream: context.default_stream(),
            context,
            kernel,
            kernel32,
            name: format!("{name}, {arch}"),
            arch,
            lock: Mutex::new(()),
        })
    }

    /// The completions of `specs`, each expanded to `depth` rows on the host and its
    /// subtrees counted on the GPU by `search`, one thread each (`Shared` counts boards past 32
    /// columns as `Local` does).
    pub fn count_with(
        &self,
        specs: &[Spec],
        depth: usize,
        search: GpuSearch,
    ) -> Result<Vec<Found>> {
        let l = Launch::of(specs, depth);
        if l.starts.is_empty() {
            return Ok(l.finish(&[], &[]));
        }
        let search = if l.fits32() { search } else { GpuSearch::Local };
        let (solutions, nodes) = self
            .run(&l, search)
            .map_err(|e| Error::Device(format!("{e:?}")))?;
        Ok(l.finish(&solutions, &nodes))
    }

    /// The launches of `l`: each start's solutions and nodes.
    fn run(
        &self,
        l: &Launch,
        search: GpuSearch,
    ) -> std::result::Result<(Vec<u64>, Vec<u64>), DriverError> {
        let _one = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let boards = self.stream.clone_htod(&l.boards)?;
        let levels = l.stack_levels();
        let (mut solutions, mut nodes) = (Vec::new(), Vec::new());
        for part in l.starts.chunks(MOST_STARTS) {
            let (s, n) = match search {
                GpuSearch::Local => self.launch(&boards, part)?,
                GpuSearch::Shared => self.launch32(&boards, part, levels)?,
            };
            solutions.extend(s);
            nodes.extend(n);
        }
        Ok((solutions, nodes))
    }

    /// One launch of the second search over `part` of the starts, the boards on the GPU
    /// already, each thread's stack `levels` deep in the block's shared memory.
    fn launch32(
        &self,
        boards: &CudaSlice<LaunchBoard>,
        part: &[Start],
        levels: u32,
    ) -> std::result::Result<(Vec<u64>, Vec<u64>), DriverError> {
        let count = part.len() as u32;
        let s = &self.stream;
        let starts = s.clone_htod(part)?;
        let mut next = s.alloc_zeros::<u32>(1)?;
        let mut solutions = s.alloc_zeros::<u64>(part.len())?;
        let mut nodes = s.alloc_zeros::<u64>(part.len())?;
        let cfg = LaunchConfig {
            grid_dim: (count.div_ceil(THREADS32).min(MOST_BLOCKS32), 1, 1),
            block_dim: (THREADS32, 1, 1),
            // 4 words per level: at most 64 threads x 32 levels x 16 bytes, 32 KiB.
            shared_mem_bytes: THREADS32 * levels * 16,
        };
        let mut launch = s.launch_builder(&self.kernel32);
        launch
            .arg(boards)
            .arg(&starts)
            .arg(&count)
            .arg(&mut next)
            .arg(&mut solutions)
            .arg(&mut nodes);
        // SAFETY: `nq_count32`'s parameters are these, in this order (`kernel.cu`); it takes
        // starts below `count` from `next` (zeroed), reads them and the boards they name,
        // writes their solutions and nodes, and keeps each thread's stack, `levels` deep
        // (the deepest start's rows, at most 32 for boards that fit), in the shared memory
        // asked for here.
        unsafe { launch.launch(cfg) }?;
        Ok((s.clone_dtoh(&solutions)?, s.clone_dtoh(&nodes)?))
    }

    /// One launch over `part` of the starts, the boards on the GPU already.
    fn launch(
        &self,
        boards: &CudaSlice<LaunchBoard>,
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
