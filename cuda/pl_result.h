// Building a pl_error (host code only, no CUDA): success, or a code with a
// malloc'd message the caller releases with pl_free_message.
#ifndef PL_RESULT_H
#define PL_RESULT_H

#include <cstdlib>
#include <cstring>
#include <string>

#include "pl_ffi.h"

static inline pl_error pl_ok() { return pl_error{0, nullptr}; }

static inline pl_error pl_fail(int code, const std::string& msg)
{
    if (code == 0)
        code = -1;
    return pl_error{code < 0 ? -code : code, strdup(msg.c_str())};
}

#endif
