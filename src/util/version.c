/* version.c - the library's version (ctriton/ctriton_version.h). */
#include "ctriton/ctriton_version.h"

const char *ct_version(void)
{
    return CTRITON_VERSION;
}

int ct_version_number(void)
{
    return CTRITON_VERSION_NUMBER;
}
