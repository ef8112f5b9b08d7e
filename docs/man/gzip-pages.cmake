# Run by cpack (CPACK_PRE_BUILD_SCRIPTS) after the install into its staging tree and
# before it packs: compresses the manual pages there as Debian's policy asks
# (gzip -9n: no name, no time stamp, so the same bytes every time). The build
# directory's pages, and a cmake --install, stay uncompressed.
file(GLOB_RECURSE pages "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*.1")
if(NOT pages)
  message(FATAL_ERROR "gzip-pages.cmake: no manual page under ${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
endif()
foreach(p ${pages})
  execute_process(COMMAND gzip -9nf ${p} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip-pages.cmake: gzip ${p} failed: ${rc}")
  endif()
endforeach()
