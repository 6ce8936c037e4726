#pragma once

namespace cli {

// The whole `delayq` command line: global options, the subcommand, errors to exit codes.
int run(int argc, char** argv);

} // namespace cli
