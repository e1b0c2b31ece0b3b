// libmp3lame (LAME), the MP3 encoder: Debian's libmp3lame-dev and Homebrew's lame install the
// header as <lame/lame.h> and ship no pkg-config file, so the module has none (see Makefile setup).
#include <lame/lame.h>
