// zlib, for reading rotated query logs that logrotate compressed (`dnsmasq.log.2.gz`).
#include <zlib.h>
