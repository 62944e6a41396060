// Nothing to import: the target only defines ICU's data symbol (icudata.S) for the linker.
#pragma once
