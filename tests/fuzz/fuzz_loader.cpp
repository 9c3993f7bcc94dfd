// libFuzzer target over the loader: one trace file in memory, parsed plain (parseTraceText) or,
// when it starts with the gzip magic, through the file reader (parseTraceFile on a scratch file),
// then assembled into a run. Built only with clang (tests/fuzz/run.sh); any crash, sanitizer
// report or timeout is a finding: add the input to tests/data/bad/ and fix the loader.

#include "model/loader.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <unistd.h>

using namespace kscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    LoadOptions options;
    options.threads = 1;
    // Small, input-dependent chunks put chunk boundaries everywhere; a low limit keeps bombs quick.
    options.chunkBytes = 64 + (size * 2654435761u) % 4096;
    options.maxUncompressedBytes = 32u << 20;
    options.htaCompat = size % 2 == 1;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<ParsedFile> parsed;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        static const std::string path = "/tmp/kscope-fuzz-" + std::to_string(getpid()) + ".json.gz";
        if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(data, 1, size, f);
            std::fclose(f);
            parsed.push_back(parseTraceFile(path, options));
        }
    } else {
        parsed.push_back(parseTraceText(text, options));
        parsed.back().trace.file = "fuzz.json";
    }
    Run run;
    assembleRun(run, std::move(parsed), options);
    for (const LoadError& e : run.errors)
        (void)describe(e);
    return 0;
}
