// Errors across the FFI: every entry point catches CUDA errors (thrown by
// CUDA_OK as cuda_error) and any other C++ exception and returns them as a
// pl_error; nothing aborts or exits the process.
#ifndef PL_ERROR_CUH
#define PL_ERROR_CUH

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include <util/exception.cuh>
#include <util/rusterror.h>
#include "pl_result.h"

// sppark reports some failures by value; turn them into exceptions.
static inline void pl_check(RustError e)
{
    if (e.code != 0) {
        std::string msg = e.message ? e.message : "sppark error";
        free(e.message);
        throw cuda_error{e.code, msg};
    }
}

// Opens an entry point's body; pl_groth16.cu's PL_ENTRY_CATCH closes it.
#define PL_TRY try {

#endif
