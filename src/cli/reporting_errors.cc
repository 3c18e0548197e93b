// The CLI's one catch: which channel an escaped exception came by decides the exit code.
#include <exception>
#include <functional>
#include <new>

#include "cli/commands.h"
#include "util/input_error.h"

namespace railyard::cli {

int ReportingErrors(const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    PrintError(e.what());
    return kExitInput;
  } catch (const std::bad_alloc&) {
    PrintError("out of memory");
    return kExitFailure;
  } catch (const std::exception& e) {
    PrintError(e.what());
    return kExitFailure;
  } catch (...) {
    // Nothing railyard throws is outside std::exception; a library's foreign type is still a failure.
    PrintError("an internal error (an exception of an unknown type)");
    return kExitFailure;
  }
}

}  // namespace railyard::cli
