# Debian packages, built by scripts/package (cpack -G DEB from a build configured with
# CMAKE_INSTALL_PREFIX=/usr):
#   delayq_<version>_amd64.deb      the tools: delayq, delayq-admin, man pages, completions,
#                                   the .desktop file and icons (what an operator installs)
#   delayq-dev_<version>_amd64.deb  the static library, headers, CMake package and delayq.pc
#                                   (what a service that produces or consumes tasks builds with)
# Split so that operators' machines get no headers, and builders no Qt.
set(CPACK_PACKAGE_NAME delayq)
set(CPACK_PACKAGE_VENDOR "delayq")
set(CPACK_PACKAGE_CONTACT "delayq maintainers <maintainers@users.noreply.a-seed-1f944e1a.example>")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL tools dev)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME delayq)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
# The admin app's sandbox and first start run a private redis-server.
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "redis-server")
# The first line is the synopsis; lines stay under 80 columns (lintian).
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "Redis delay queue: admin app and command line
Tasks that must happen later wait in a Redis sorted set scored by their
due time; Lua scripts claim, ack, retry and cancel them atomically, with
leases so a dead worker's tasks come back.
.
delayq-admin is a Qt desktop app for operators: every pending task in due
order, a timeline, push, cancel, reschedule, retry and a test worker.
delayq is the command line for scripts, CI and benchmarks, with bash and
zsh completions.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME delayq-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The library is static: its users link hiredis and OpenSSL themselves.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libhiredis-dev, libssl-dev, libhowardhinnant-date-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "pkg-config, cmake")
# delayq::delivery (find_package(delayq COMPONENTS delivery), delayq-delivery.pc) links these.
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS
  "librabbitmq-dev, libcurl4-openssl-dev | libcurl-dev, nlohmann-json3-dev")
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "Redis delay queue: C++ library to produce and consume tasks
The delayq core as a static C++20 library with its headers: push, claim,
ack, nack, cancel and reschedule tasks on delayq queues, and run workers.
Found by CMake (find_package(delayq), target delayq::core) or by
pkg-config (delayq). The worker's delivery targets (RabbitMQ with publisher
confirms, webhooks, pipe consumers) are a second library: CMake
find_package(delayq COMPONENTS delivery), target delayq::delivery, or
pkg-config delayq-delivery.")

# A Debian changelog for each package (a native package must have one): the version from
# project(), the date from SOURCE_DATE_EPOCH when set, so a rebuild is identical.
string(TIMESTAMP _changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(_changelog ${PROJECT_BINARY_DIR}/changelog)
file(WRITE ${_changelog} "delayq (${PROJECT_VERSION}) unstable; urgency=medium

  * Built from the delayq sources at version ${PROJECT_VERSION}; the changes are in
    the project's git history.

 -- ${CPACK_PACKAGE_CONTACT}  ${_changelog_date}
")
add_custom_command(OUTPUT ${_changelog}.gz
  COMMAND sh -c "gzip -9n < \"$1\" > \"$1.gz\"" sh ${_changelog}
  DEPENDS ${_changelog} VERBATIM)
add_custom_target(delayq_changelog ALL DEPENDS ${_changelog}.gz)
install(FILES ${_changelog}.gz DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)
install(FILES ${_changelog}.gz DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/delayq-dev
  COMPONENT dev)

include(CPack)
