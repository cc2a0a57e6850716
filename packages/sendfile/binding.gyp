{
  "targets": [
    {
      "target_name": "sendfile",
      "sources": ["src/sendfile.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"]
    }
  ]
}
