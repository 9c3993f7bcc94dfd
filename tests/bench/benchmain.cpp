// The benchmark target: `kscope_bench RUN_DIR` runs the same code as `kinetoscope-cli bench load`.
#include "cli/command.h"

#include <string>
#include <vector>

int main(int argc, char** argv)
{
    std::vector<std::string> args = {"kscope_bench", "bench", "load"};
    for (int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    std::vector<char*> argvCopy;
    for (std::string& a : args)
        argvCopy.push_back(a.data());
    return kscope::cli::runCli(static_cast<int>(argvCopy.size()), argvCopy.data());
}
