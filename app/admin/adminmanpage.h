#pragma once

#include <QString>

// delayq-admin(1) in roff, made from the same option list as --help (AdminOptions::options()),
// for `delayq-admin --generate-man` at build time.
QString adminManPage();
