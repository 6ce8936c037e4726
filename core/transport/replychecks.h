#pragma once

#include <delayq/reply.h>

#include <cstddef>
#include <vector>

namespace delayq {

// Throws the server's error (errorFromReply) when the reply is an error; else nothing.
void throwIfError(const Reply& reply);
// Throws the server's error for an error reply (errorFromReply), Error(Protocol)
// naming `what` for any other reply that is not an array of at least minSize.
void requireArray(const Reply& reply, size_t minSize, const char* what);
// Throws the first error reply of a pipeline as the delayq::Error it stands for.
void throwFirstError(const std::vector<Reply>& replies);

} // namespace delayq
