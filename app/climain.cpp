#include "cli/command.h"

int main(int argc, char** argv)
{
    return kscope::cli::runCli(argc, argv);
}
