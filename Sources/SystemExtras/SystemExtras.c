// Intentionally empty: the module only exports SystemExtras.h.
#include "SystemExtras.h"
