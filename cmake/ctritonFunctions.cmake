# ctritonFunctions.cmake - CMake helpers for projects with their own kernels
# (docs/using.md).  Included by ctritonConfig.cmake and by ctriton's own
# CMakeLists.txt (so they work after add_subdirectory or FetchContent too).
#
# ctriton_add_kernel_plugin(NAME SOURCES...)
#   A kernel plugin: a shared module of kernels (TL_KERNEL, TL_CONFIGS,
#   CT_KERNEL_PLUGIN) linked against libctriton.so, for
#   `ctriton --kernels $<TARGET_FILE:NAME> emit|lint|run|lower|aot|bench ...`.
#
# ctriton_add_aot(TARGET KERNEL NAME [CONFIG C] [PLUGIN P] [TTIR FILE]
#                 [ARCH 80,90] [PREFIX SYM] [OPTIONS ...])
#   Runs `ctriton aot` at build time (Triton is needed then, not at run
#   time) and adds the generated launcher PREFIX.c to TARGET, with PREFIX.h
#   on its include path.  KERNEL is a registered kernel (of plugin target P),
#   or, with TTIR, the kernel of a TTIR file Python Triton wrote.  OPTIONS
#   go to `ctriton aot` as they are (--num-warps 8 ...).
include_guard(GLOBAL)

function(ctriton_add_kernel_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES")
  add_library(${name} MODULE ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ctriton::shared)
  # the kernel language's macros need GNU C (`, ##__VA_ARGS__`)
  set_target_properties(${name} PROPERTIES C_STANDARD 11 C_EXTENSIONS ON)
endfunction()

function(ctriton_add_aot target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "KERNEL;CONFIG;PLUGIN;TTIR;ARCH;PREFIX" "OPTIONS")
  if(NOT ARG_KERNEL AND NOT ARG_TTIR)
    message(FATAL_ERROR "ctriton_add_aot(${target}): give KERNEL, or TTIR")
  endif()
  if(NOT ARG_ARCH)
    set(ARG_ARCH 90)
  endif()
  set(cmd $<TARGET_FILE:ctriton::cli>)
  set(deps ctriton::cli)
  if(ARG_PLUGIN)
    list(APPEND cmd --kernels $<TARGET_FILE:${ARG_PLUGIN}>)
    list(APPEND deps ${ARG_PLUGIN})
  endif()
  list(APPEND cmd aot)
  if(ARG_TTIR)
    get_filename_component(ttir ${ARG_TTIR} ABSOLUTE)
    list(APPEND cmd --ttir ${ttir})
    list(APPEND deps ${ttir})
    if(ARG_KERNEL)
      list(APPEND cmd --kernel ${ARG_KERNEL})
    endif()
  else()
    list(APPEND cmd ${ARG_KERNEL})
    if(ARG_CONFIG)
      list(APPEND cmd --config ${ARG_CONFIG})
    endif()
  endif()
  if(NOT ARG_PREFIX)
    if(ARG_TTIR)
      get_filename_component(ARG_PREFIX ${ARG_TTIR} NAME_WE)
    elseif(ARG_CONFIG)
      set(ARG_PREFIX ${ARG_KERNEL}_${ARG_CONFIG})
    else()
      set(ARG_PREFIX ${ARG_KERNEL})
    endif()
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/ctriton_aot)
  add_custom_command(
    OUTPUT ${dir}/${ARG_PREFIX}.c ${dir}/${ARG_PREFIX}.h
    COMMAND ${cmd} --arch ${ARG_ARCH} --name ${ARG_PREFIX} -o ${dir} ${ARG_OPTIONS}
    DEPENDS ${deps}
    COMMENT "ctriton aot ${ARG_KERNEL}${ARG_TTIR} -> ${ARG_PREFIX}.c"
    VERBATIM)
  target_sources(${target} PRIVATE ${dir}/${ARG_PREFIX}.c)
  target_include_directories(${target} PRIVATE ${dir})
  # the launcher needs libc, libdl and pthreads only (libcuda is opened at run time)
  find_package(Threads REQUIRED)
  target_link_libraries(${target} PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
endfunction()
