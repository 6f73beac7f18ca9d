/* registry_internal.h - between the registry and the plugin loader. */
#ifndef CTRITON_REGISTRY_INTERNAL_H
#define CTRITON_REGISTRY_INTERNAL_H

/* Around a plugin's ctriton_plugin_init on this thread: the entries it
 * registers record `path`; end returns how many registrations it refused. */
void ct__registry_begin_plugin(const char *path);
int ct__registry_end_plugin(void);

#endif
