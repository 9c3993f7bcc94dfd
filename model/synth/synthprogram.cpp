#include "synthprogram.h"

#include "synthrandom.h"

#include <cassert>
#include <string_view>

namespace kscope {

const char* toString(SynthGpuType type)
{
    switch (type) {
    case SynthGpuType::Computation: return "COMPUTATION";
    case SynthGpuType::Communication: return "COMMUNICATION";
    case SynthGpuType::Memory: return "MEMORY";
    case SynthGpuType::Other: return "OTHER";
    }
    return "OTHER";
}

namespace {

constexpr int32_t kUs = 1000;

// Kernel names as CUDA / ROCm builds of PyTorch print them.
constexpr std::string_view kReluKernel =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar("
    "at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
    "const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
    "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
    "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() "
    "const::{lambda(float)#1}, at::detail::Array<char*, 2>)";
constexpr std::string_view kLayerNormKernel =
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, "
    "float const*, float const*, float*, float*, float*)";
constexpr std::string_view kLossKernel =
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
    "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
    "unsigned int, float, 4>)";
constexpr std::string_view kThresholdBackwardKernel =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::threshold_kernel_impl<float>("
    "at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, "
    "at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
    "float)::{lambda(float, float)#1}, at::detail::Array<char*, 3>)";
constexpr std::string_view kLayerNormBackwardKernel =
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, float>(float const*, "
    "float const*, float const*, float const*, float const*, float*, int)";
constexpr std::string_view kForeachAddKernel =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, "
    "std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)";

class ProgramBuilder {
public:
    explicit ProgramBuilder(const SynthOptions& options) : m_options(options), m_rng(synthKey(options.seed, 0xB11D))
    {
        m_program.amd = options.device == SynthOptions::Device::Amd;
        m_program.cpuArgs.push_back("");
        m_program.catCpuOp = category("cpu_op");
        m_program.catUserAnnotation = category("user_annotation");
        m_program.catRuntime = category("cuda_runtime");
        m_program.catGpuUserAnnotation = category("gpu_user_annotation");
        m_program.nameStreamWaitEvent = name(amd() ? "hipStreamWaitEvent" : "cudaStreamWaitEvent");
    }

    SynthProgram build();

private:
    bool amd() const { return m_program.amd; }

    uint16_t name(std::string_view text)
    {
        assert(text.find('"') == std::string_view::npos && text.find('\\') == std::string_view::npos);
        for (size_t i = 0; i < m_program.names.size(); ++i)
            if (m_program.names[i] == text)
                return uint16_t(i);
        m_program.names.emplace_back(text);
        return uint16_t(m_program.names.size() - 1);
    }
    uint16_t category(std::string_view text)
    {
        for (size_t i = 0; i < m_program.categories.size(); ++i)
            if (m_program.categories[i] == text)
                return uint16_t(i);
        m_program.categories.emplace_back(text);
        return uint16_t(m_program.categories.size() - 1);
    }
    uint16_t args(std::string text)
    {
        for (size_t i = 0; i < m_program.cpuArgs.size(); ++i)
            if (m_program.cpuArgs[i] == text)
                return uint16_t(i);
        m_program.cpuArgs.push_back(std::move(text));
        return uint16_t(m_program.cpuArgs.size() - 1);
    }
    // Typical duration of a kernel kind: drawn once per run so seeds give different models.
    int64_t typical(int64_t loUs, int64_t hiUs) { return m_rng.range(loUs * kUs, hiUs * kUs); }

    uint16_t kernel(std::string_view kernelName, int64_t durNs, int gridX, int gridY, int blockX, int registers,
                    int sharedMemory, SynthGpuType type = SynthGpuType::Computation,
                    SynthStream stream = SynthStream::Compute);
    uint16_t memoryOp(std::string_view opName, const char* cat, int64_t durNs, int64_t bytes);
    uint16_t ncclKernel(int bucket, int64_t nelems, int64_t durNs);

    void push(SynthInstrKind kind, uint16_t nameIndex = 0, uint16_t cat = 0, uint16_t gpuOp = 0, uint16_t argsIndex = 0,
              int32_t minNs = 0, int32_t maxNs = 0)
    {
        SynthInstr instr;
        instr.kind = kind;
        instr.thread = m_thread;
        instr.name = nameIndex;
        instr.category = cat;
        instr.gpuOp = gpuOp;
        instr.args = argsIndex;
        instr.minNs = minNs;
        instr.maxNs = maxNs;
        m_program.instrs.push_back(instr);
    }
    void open(std::string_view opName, std::string shapes = {})
    {
        push(SynthInstrKind::Open, name(opName), m_program.catCpuOp, 0, args(std::move(shapes)));
    }
    void annotate(std::string_view annotationName)
    {
        push(SynthInstrKind::Open, name(annotationName), m_program.catUserAnnotation);
    }
    void close() { push(SynthInstrKind::Close); }
    void work(int32_t minUs, int32_t maxUs) { push(SynthInstrKind::Work, 0, 0, 0, 0, minUs * kUs, maxUs * kUs); }
    uint16_t runtimeArgs(int cbid) { return amd() ? 0 : args(", \"cbid\": " + std::to_string(cbid)); }
    void launch(uint16_t gpuOp)
    {
        const SynthGpuOp& op = m_program.gpuOps[gpuOp];
        const char* runtimeName = amd() ? "hipLaunchKernel" : "cudaLaunchKernel";
        int cbid = 211;
        if (op.category == "gpu_memcpy") {
            runtimeName = amd() ? "hipMemcpyAsync" : "cudaMemcpyAsync";
            cbid = 41;
        } else if (op.category == "gpu_memset") {
            runtimeName = amd() ? "hipMemsetAsync" : "cudaMemsetAsync";
            cbid = 51;
        }
        push(op.stream == SynthStream::Comm ? SynthInstrKind::Collective : SynthInstrKind::Launch, name(runtimeName),
             m_program.catRuntime, gpuOp, runtimeArgs(cbid), m_nextDelayNs[0], m_nextDelayNs[1]);
        m_program.instrs.back().placedCause = m_nextCause;
        m_nextCause = SynthPlacedCause::None;
        m_nextDelayNs[0] = m_nextDelayNs[1] = 0;
    }
    // The next launch's op comes after a gap whose host cause is known by construction.
    void placeBeforeNextLaunch(SynthPlacedCause cause) { m_nextCause = cause; }
    // The next launch's op starts this much later than the stream allows (the GPU is busy
    // elsewhere): the gap is the GPU's, the host launched in time.
    void delayNextLaunchOnGpu(int32_t minUs, int32_t maxUs)
    {
        m_nextDelayNs[0] = minUs * kUs;
        m_nextDelayNs[1] = maxUs * kUs;
        placeBeforeNextLaunch(SynthPlacedCause::GpuQueued);
    }
    // A typical aten op: the op, an optional inner op, one launch.
    void atenLaunch(std::string_view outer, std::string_view inner, uint16_t gpuOp, std::string shapes = {})
    {
        open(outer, std::move(shapes));
        if (!inner.empty())
            open(inner);
        launch(gpuOp);
        if (!inner.empty())
            close();
        close();
    }
    void autograd(std::string_view node, std::string_view aten, uint16_t gpuOp)
    {
        open(std::string("autograd::engine::evaluate_function: ") + std::string(node));
        open(node);
        open(aten);
        launch(gpuOp);
        close();
        close();
        close();
    }

    const SynthOptions& m_options;
    SynthRng m_rng;
    SynthProgram m_program;
    uint8_t m_thread = 0;
    SynthPlacedCause m_nextCause = SynthPlacedCause::None;
    int32_t m_nextDelayNs[2] = {0, 0};
};

uint16_t ProgramBuilder::kernel(std::string_view kernelName, int64_t durNs, int gridX, int gridY, int blockX,
                                int registers, int sharedMemory, SynthGpuType type, SynthStream stream)
{
    SynthGpuOp op;
    op.name = std::string(kernelName);
    op.category = "kernel";
    op.type = type;
    op.stream = stream;
    op.baseDurNs = durNs;
    if (amd()) {
        op.constArgs = ", \"kind\": \"Dispatch Kernel\", \"grid\": [" + std::to_string(gridX * blockX) + ", " +
                       std::to_string(gridY) + ", 1], \"block\": [" + std::to_string(blockX) +
                       ", 1, 1], \"shared memory\": " + std::to_string(sharedMemory);
    } else {
        // blocks/warps per SM as Kineto prints them: 6 decimals (108 SMs of an A100).
        const int64_t blocks = int64_t(gridX) * gridY;
        const int64_t blocksPerSmMicro = blocks * 1000000 / 108;
        const int64_t warpsPerSmMicro = blocksPerSmMicro * (blockX / 32);
        const int occupancy = int(std::min<int64_t>(100, warpsPerSmMicro / 640000 + 1));
        auto micro = [](int64_t v) {
            std::string digits = std::to_string(v % 1000000);
            return std::to_string(v / 1000000) + "." + std::string(6 - digits.size(), '0') + digits;
        };
        op.constArgs = ", \"registers per thread\": " + std::to_string(registers) +
                       ", \"shared memory\": " + std::to_string(sharedMemory) + ", \"blocks per SM\": " +
                       micro(blocksPerSmMicro) + ", \"warps per SM\": " + micro(warpsPerSmMicro) + ", \"grid\": [" +
                       std::to_string(gridX) + ", " + std::to_string(gridY) + ", 1], \"block\": [" +
                       std::to_string(blockX) + ", 1, 1], \"est. achieved occupancy %\": " + std::to_string(occupancy);
    }
    m_program.gpuOps.push_back(std::move(op));
    return uint16_t(m_program.gpuOps.size() - 1);
}

uint16_t ProgramBuilder::memoryOp(std::string_view opName, const char* cat, int64_t durNs, int64_t bytes)
{
    SynthGpuOp op;
    op.name = std::string(opName);
    op.category = cat;
    op.type = SynthGpuType::Memory;
    op.baseDurNs = durNs;
    op.bytes = bytes;
    m_program.gpuOps.push_back(std::move(op));
    return uint16_t(m_program.gpuOps.size() - 1);
}

uint16_t ProgramBuilder::ncclKernel(int bucket, int64_t nelems, int64_t durNs)
{
    // Small buckets use the low-latency protocol, large ones SIMPLE, as NCCL's tuner would.
    const bool lowLatency = nelems < 4'000'000;
    std::string kernelName;
    if (amd())
        kernelName = "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)";
    else if (m_options.legacyNcclNames)
        kernelName = std::string("ncclKernel_AllReduce_RING_") + (lowLatency ? "LL" : "SIMPLE") +
                     "_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
    else
        kernelName = std::string("ncclDevKernel_AllReduce_Sum_f32_RING_") + (lowLatency ? "LL" : "SIMPLE") +
                     "(ncclDevKernelArgsStorage<4096ul>)";
    const uint16_t op = kernel(kernelName, durNs, 8, 1, lowLatency ? 512 : 544, 96, 87568,
                               SynthGpuType::Communication, SynthStream::Comm);
    (void)bucket;
    const int world = std::max(1, m_options.ranks);
    std::string ranks = "[";
    // Long rank lists are abbreviated: a 1,000-rank run would otherwise spend most bytes here.
    if (world <= 64) {
        for (int r = 0; r < world; ++r)
            ranks += (r ? ", " : "") + std::to_string(r);
    } else {
        ranks += "0, 1, 2, ..., " + std::to_string(world - 1);
    }
    ranks += "]";
    const std::string collective = ", \"Collective name\": \"allreduce\", \"In msg nelems\": " +
                                   std::to_string(nelems) + ", \"Out msg nelems\": " + std::to_string(nelems) +
                                   ", \"Group size\": " + std::to_string(world) +
                                   ", \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
                                   "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
                                   "\"Process Group Ranks\": \"" + ranks + "\"";
    m_program.gpuOps[op].constArgs += collective;
    m_program.gpuOps[op].collectiveNelems = nelems;
    return op;
}

SynthProgram ProgramBuilder::build()
{
    const int layers = std::max(1, m_options.layers);
    const int hidden = 1024 * int(m_rng.range(1, 4));
    const int batch = 256 * int(m_rng.range(1, 4));
    const std::string dims = std::to_string(batch) + ", " + std::to_string(hidden);
    const std::string linearShapes = ", \"Input Dims\": [[" + dims + "], [" + std::to_string(hidden) + ", " +
                                     std::to_string(hidden) + "], [" + std::to_string(hidden) + "]], \"Input type\": "
                                     "[\"float\", \"float\", \"float\"]";
    const std::string unaryShapes = ", \"Input Dims\": [[" + dims + "]], \"Input type\": [\"float\"]";

    const char* gemmIn = amd() ? "Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_GRVW4_WG32_4_1_WGM8"
                               : "ampere_sgemm_128x128_tn";
    const char* gemmFwd = amd() ? "Cijk_Ailk_Bljk_SB_MT128x64x16_MI32x32x2x1_SN_1LDSB0_GRVW4_WG32_4_1_WGM8"
                                : "ampere_sgemm_128x64_tn";
    const char* gemmDgrad = amd() ? "Cijk_Alik_Bljk_SB_MT128x64x16_MI32x32x2x1_SN_1LDSB0_GRVW4_WG32_4_1_WGM8"
                                  : "ampere_sgemm_128x64_nn";
    const char* gemmWgrad = amd() ? "Cijk_Ailk_Bjlk_SB_MT64x64x16_MI32x32x2x1_SN_1LDSB0_GRVW4_WG32_4_1_WGM8"
                                  : "ampere_sgemm_64x64_nt";

    const uint16_t kGemmIn = kernel(gemmIn, typical(120, 180), hidden / 128, batch / 128, 256, 122, 32768);
    const uint16_t kGemmFwd = kernel(gemmFwd, typical(180, 260), hidden / 64, batch / 128, 128, 126, 16384);
    const uint16_t kGemmDgrad = kernel(gemmDgrad, typical(180, 260), hidden / 64, batch / 128, 128, 126, 16384);
    const uint16_t kGemmWgrad = kernel(gemmWgrad, typical(150, 230), hidden / 64, hidden / 64, 128, 90, 16384);
    const uint16_t kLayerNorm = kernel(kLayerNormKernel, typical(20, 40), batch, 1, 256, 40, 0);
    const uint16_t kRelu = kernel(kReluKernel, typical(12, 24), batch * hidden / 2048, 1, 128, 24, 0);
    const uint16_t kLoss = kernel(kLossKernel, typical(8, 16), 1, 1, 512, 32, 16);
    const uint16_t kThreshold = kernel(kThresholdBackwardKernel, typical(14, 28), batch * hidden / 2048, 1, 128, 24, 0);
    const uint16_t kLayerNormBwd = kernel(kLayerNormBackwardKernel, typical(35, 60), batch, 1, 128, 48, 0);
    const uint16_t kForeachAdd = kernel(kForeachAddKernel, typical(40, 80), 320, 1, 512, 32, 0);
    const int64_t batchBytes = int64_t(batch) * hidden * 4;
    const uint16_t kHtoD = memoryOp("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", batchBytes / 12 + 2 * kUs,
                                    batchBytes);
    const uint16_t kDtoH = memoryOp("Memcpy DtoH (Device -> Pageable)", "gpu_memcpy", 2 * kUs, 4);
    const int64_t memsetBytes = int64_t(hidden) * hidden * 4;
    const uint16_t kMemset = memoryOp("Memset (Device)", "gpu_memset", memsetBytes / 900 + 2 * kUs, memsetBytes);
    if (!amd()) {
        SynthGpuOp sync;
        sync.name = "Stream Sync";
        sync.category = "cuda_sync";
        sync.type = SynthGpuType::Other;
        m_program.gpuOps.push_back(std::move(sync));
        m_program.streamSyncOp = int(m_program.gpuOps.size() - 1);
    }
    m_program.slowGpuOp = kGemmIn;

    // --- one training step ---------------------------------------------------------------
    m_thread = 0;
    push(SynthInstrKind::StepOpen, name("ProfilerStep#"), m_program.catUserAnnotation);
    work(20, 60);
    annotate("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    push(SynthInstrKind::HostStall, 0, 0, 0, 0, 300 * kUs, 900 * kUs);
    close();
    placeBeforeNextLaunch(SynthPlacedCause::DataLoading);
    open("aten::to", unaryShapes);
    open("aten::_to_copy");
    open("aten::copy_");
    launch(kHtoD);
    close();
    close();
    close();
    annotate("Optimizer.zero_grad#SGD.zero_grad");
    atenLaunch("aten::zero_", "aten::fill_", kMemset);
    close();

    annotate("## forward ##");
    push(SynthInstrKind::GpuAnnotationOpen, name("## forward ##"), m_program.catGpuUserAnnotation);
    for (int layer = 0; layer < layers; ++layer) {
        open("aten::linear", linearShapes);
        open("aten::t");
        open("aten::transpose");
        open("aten::as_strided");
        close();
        close();
        close();
        atenLaunch("aten::addmm", {}, layer == 0 ? kGemmIn : kGemmFwd);
        close();
        if (m_options.idleCauseStalls && layer == 1)
            delayNextLaunchOnGpu(100, 200);
        atenLaunch("aten::layer_norm", "aten::native_layer_norm", kLayerNorm, unaryShapes);
        atenLaunch("aten::relu", "aten::clamp_min", kRelu, unaryShapes);
        if (layer == layers / 2) {
            // Metrics logging in the middle of forward: long enough for the GPU queue to drain.
            annotate("log_metrics");
            push(SynthInstrKind::HostStall, 0, 0, 0, 0, 1500 * kUs, 4000 * kUs);
            close();
            placeBeforeNextLaunch(SynthPlacedCause::CpuOp);
        }
        work(2, 8);
    }
    atenLaunch("aten::mse_loss", "aten::mean", kLoss, unaryShapes);
    push(SynthInstrKind::GpuAnnotationClose);
    close();

    annotate("## backward ##");
    push(SynthInstrKind::GpuAnnotationOpen, name("## backward ##"), m_program.catGpuUserAnnotation);
    m_thread = 1;
    int bucket = 0;
    for (int layer = layers - 1; layer >= 0; --layer) {
        autograd("ReluBackward0", "aten::threshold_backward", kThreshold);
        autograd("NativeLayerNormBackward0", "aten::native_layer_norm_backward", kLayerNormBwd);
        open("autograd::engine::evaluate_function: AddmmBackward0");
        open("AddmmBackward0");
        atenLaunch("aten::mm", {}, kGemmDgrad, linearShapes);
        atenLaunch("aten::mm", {}, kGemmWgrad, linearShapes);
        close();
        close();
        work(3, 10);
        // DDP all-reduces a bucket every two layers, launched from the autograd thread.
        if ((layers - layer) % 2 == 0 || layer == 0) {
            // DDP's 25 MB buckets; the first one is small (DDP sizes it at 1 MB by default).
            const int64_t nelems = bucket == 0 ? 262'144 * m_rng.range(1, 4) : 1'048'576 * m_rng.range(3, 6);
            const int64_t transferNs = nelems * 4 * 2 / 100 + 20 * kUs;  // ring all-reduce at ~100 GB/s
            const uint16_t nccl = ncclKernel(bucket, nelems, transferNs);
            m_program.nameRecordParamComms = name("record_param_comms");
            open("record_param_comms", m_program.gpuOps[nccl].constArgs.substr(
                                           m_program.gpuOps[nccl].constArgs.find(", \"Collective name\"")));
            annotate("nccl:all_reduce");
            push(SynthInstrKind::RuntimeOnly, name(amd() ? "hipEventRecord" : "cudaEventRecord"), m_program.catRuntime,
                 0, runtimeArgs(135));
            push(SynthInstrKind::RuntimeOnly, m_program.nameStreamWaitEvent, m_program.catRuntime, 0,
                 runtimeArgs(146));
            launch(nccl);
            close();
            close();
            ++bucket;
        }
    }
    m_thread = 0;
    push(SynthInstrKind::GpuAnnotationClose);
    close();

    if (m_options.idleCauseStalls) {
        // Gradient clipping's norm check synchronises the device: the host blocks until the last
        // all-reduce is done, so the compute stream's gap is the sync's (and no stream wait is left).
        push(SynthInstrKind::DeviceSync, name(amd() ? "hipDeviceSynchronize" : "cudaDeviceSynchronize"),
             m_program.catRuntime, 0, runtimeArgs(165));
    }
    annotate("Optimizer.step#SGD.step");
    push(SynthInstrKind::GpuAnnotationOpen, name("Optimizer.step#SGD.step"), m_program.catGpuUserAnnotation);
    push(SynthInstrKind::WaitComm, m_program.nameStreamWaitEvent, m_program.catRuntime, 0, runtimeArgs(146));
    for (int group = 0; group < 2; ++group) {
        if (group == 0)
            placeBeforeNextLaunch(m_options.idleCauseStalls ? SynthPlacedCause::Synchronization
                                                            : SynthPlacedCause::StreamWait);
        if (group == 1 && m_options.idleCauseStalls) {
            // Python in the optimizer between parameter groups: the GPU drains inside the step.
            push(SynthInstrKind::HostStall, 0, 0, 0, 0, 200 * kUs, 500 * kUs);
            placeBeforeNextLaunch(SynthPlacedCause::OptimizerStep);
        }
        atenLaunch("aten::_foreach_add_", {}, kForeachAdd);
    }
    push(SynthInstrKind::GpuAnnotationClose);
    close();

    open("aten::item");
    open("aten::_local_scalar_dense");
    launch(kDtoH);
    push(SynthInstrKind::StreamSync, name(amd() ? "hipStreamSynchronize" : "cudaStreamSynchronize"),
         m_program.catRuntime, 0, runtimeArgs(131));
    close();
    close();
    work(5, 20);
    push(SynthInstrKind::StepClose);

    for (size_t i = 0; i < m_program.instrs.size(); ++i)
        if (m_program.instrs[i].kind == SynthInstrKind::Collective)
            m_program.collectiveInstrs.push_back(int(i));
    return std::move(m_program);
}

} // namespace

int SynthProgram::countEventsPerStep() const
{
    int events = 0;
    for (const SynthInstr& instr : instrs) {
        switch (instr.kind) {
        case SynthInstrKind::StepClose:
        case SynthInstrKind::Close:
        case SynthInstrKind::RuntimeOnly:
        case SynthInstrKind::WaitComm:
        case SynthInstrKind::DeviceSync:
        case SynthInstrKind::GpuAnnotationClose:
            events += 1;  // one X event
            break;
        case SynthInstrKind::Launch:
        case SynthInstrKind::Collective:
            events += 4;  // runtime, flow start, GPU activity, flow end
            break;
        case SynthInstrKind::StreamSync:
            events += streamSyncOp >= 0 ? 4 : 1;
            break;
        default:
            break;
        }
    }
    return events;
}

const char* toString(SynthPlacedCause cause)
{
    switch (cause) {
    case SynthPlacedCause::None: return "";
    case SynthPlacedCause::DataLoading: return "data_loading";
    case SynthPlacedCause::CpuOp: return "cpu_op";
    case SynthPlacedCause::StreamWait: return "stream_wait";
    case SynthPlacedCause::Synchronization: return "synchronization";
    case SynthPlacedCause::OptimizerStep: return "optimizer_step";
    case SynthPlacedCause::GpuQueued: break;
    }
    return "gpu_queued";
}

SynthProgram buildSynthProgram(const SynthOptions& options)
{
    return ProgramBuilder(options).build();
}

} // namespace kscope
