/*
 * Loads a model -- XLA HLO text, as JAX exports it -- compiles it for every
 * device of every loaded plugin and runs it there: once, the first run,
 * which pays for anything done lazily, then N more times. Prints the
 * compile, first-run and median run times and each result's shape and
 * first values.
 *
 *   run_model [--repeat N] MODEL.hlo [INPUT.npy ...]
 *
 * The inputs bind the entry parameters in order, tuples flattened; without
 * inputs every parameter gets a deterministic pattern. A device whose
 * plugin cannot run the model (PHAL_UNIMPLEMENTED) is reported and skipped;
 * any other error ends the program with status 1.
 */
/* clock_gettime and CLOCK_MONOTONIC: timings must not jump with the
 * wall clock. */
#define _POSIX_C_SOURCE 199309L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host_array.h"
#include "polyhal/runtime.h"

enum { kDefaultRepeat = 10, kMaxRepeat = 100000, kValuesShown = 6 };

typedef struct options {
  const char* model_path;
  char** input_paths;
  size_t input_count;
  long repeat;
} options_t;

/* What every device runs: the program text and the inputs, read once. */
typedef struct model {
  char* text;
  size_t text_size;
  host_array_t* inputs; /* one per input path */
  size_t input_count;
} model_t;

/* Prints a failed status, frees it and returns 1; returns 0 for success. */
static int Failed(phal_status_t* status, const char* what) {
  if (status == NULL) return 0;
  fprintf(stderr, "run_model: %s failed: %s: %s\n", what,
          phal_status_code_name(phal_status_get_code(status)),
          phal_status_get_message(status));
  phal_status_free(status);
  return 1;
}

static double NowMs(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

static int CompareDoubles(const void* a, const void* b) {
  double x = *(const double*)a;
  double y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Sorts `values` (count > 0) and returns their median. */
static double Median(double* values, size_t count) {
  qsort(values, count, sizeof(*values), CompareDoubles);
  return count % 2 == 1 ? values[count / 2]
                        : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static int ParseOptions(int argc, char** argv, options_t* out) {
  memset(out, 0, sizeof(*out));
  out->repeat = kDefaultRepeat;
  int i = 1;
  if (i + 1 < argc && strcmp(argv[i], "--repeat") == 0) {
    char* end = NULL;
    errno = 0;
    out->repeat = strtol(argv[i + 1], &end, 10);
    if (errno != 0 || end == argv[i + 1] || *end != '\0' || out->repeat < 1 ||
        out->repeat > kMaxRepeat) {
      fprintf(stderr, "run_model: --repeat takes a count from 1 to %d\n",
              kMaxRepeat);
      return 0;
    }
    i += 2;
  }
  if (i >= argc || argv[i][0] == '-') return 0;
  out->model_path = argv[i];
  out->input_paths = argv + i + 1;
  out->input_count = (size_t)(argc - i - 1);
  return 1;
}

/* Reads a whole file; its text need not end in NUL for the compiler. */
static int ReadTextFile(const char* path, char** out_text, size_t* out_size) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) {
    fprintf(stderr, "run_model: %s: cannot open: %s\n", path, strerror(errno));
    return 0;
  }
  char* text = NULL;
  size_t size = 0;
  size_t capacity = 0;
  int ok = 1;
  for (;;) {
    if (size == capacity) {
      capacity = capacity == 0 ? 65536 : capacity * 2;
      char* grown = realloc(text, capacity);
      ok = grown != NULL;
      if (!ok) break;
      text = grown;
    }
    size_t read = fread(text + size, 1, capacity - size, file);
    size += read;
    if (read == 0) break;
  }
  ok = ok && !ferror(file);
  fclose(file);
  if (!ok) {
    fprintf(stderr, "run_model: %s: cannot read it\n", path);
    free(text);
    return 0;
  }
  *out_text = text;
  *out_size = size;
  return 1;
}

static void FreeModel(model_t* model) {
  for (size_t i = 0; i < model->input_count; ++i) {
    host_array_free(&model->inputs[i]);
  }
  free(model->inputs);
  free(model->text);
  memset(model, 0, sizeof(*model));
}

/* Reads the program and the inputs into `model`, which the caller frees
 * with FreeModel whatever this returns. */
static int LoadModel(const options_t* options, model_t* model) {
  memset(model, 0, sizeof(*model));
  if (!ReadTextFile(options->model_path, &model->text, &model->text_size)) {
    return 0;
  }
  model->inputs = calloc(options->input_count + 1, sizeof(host_array_t));
  if (model->inputs == NULL) {
    fprintf(stderr, "run_model: out of memory\n");
    return 0;
  }
  model->input_count = options->input_count;
  for (size_t i = 0; i < options->input_count; ++i) {
    char error[512];
    if (!host_array_read_npy(options->input_paths[i], &model->inputs[i], error,
                             sizeof(error))) {
      fprintf(stderr, "run_model: %s\n", error);
      return 0;
    }
  }
  return 1;
}

/* The elements in `byte_size` bytes of `element_type`. */
static size_t ElementCount(phal_element_type_t element_type,
                           uint64_t byte_size) {
  size_t element_size = phal_element_type_byte_size(element_type);
  return element_size > 0 ? (size_t)byte_size / element_size : 0;
}

static void FreeBuffers(phal_buffer_t** buffers, size_t count) {
  for (size_t i = 0; buffers != NULL && i < count; ++i) {
    phal_buffer_free(buffers[i]);
    buffers[i] = NULL;
  }
}

/* An input must have exactly the parameter's element type and dims. */
static int InputMatches(const host_array_t* input, const char* path,
                        size_t index, const phal_buffer_desc_t* parameter) {
  if (host_array_has_shape(input, parameter->element_type, parameter->rank,
                           parameter->dims)) {
    return 1;
  }
  char given[128];
  char wanted[128];
  host_array_format_shape(input->element_type, input->rank, input->dims, given,
                          sizeof(given));
  host_array_format_shape(parameter->element_type, parameter->rank,
                          parameter->dims, wanted, sizeof(wanted));
  fprintf(stderr, "run_model: %s is %s but parameter %zu is %s\n", path, given,
          index, wanted);
  return 0;
}

/* Allocates parameter `index` on `device` into *out_buffer (freed by the
 * caller, also on failure) and fills it with its input or the pattern. */
static int UploadArgument(phal_device_t* device,
                          const phal_buffer_desc_t* parameter, size_t index,
                          const options_t* options, const model_t* model,
                          phal_buffer_t** out_buffer) {
  if (model->input_count > 0 &&
      !InputMatches(&model->inputs[index], options->input_paths[index], index,
                    parameter)) {
    return 0;
  }
  uint64_t byte_size = 0;
  if (Failed(phal_buffer_allocate(device, parameter, out_buffer), "allocate") ||
      Failed(phal_buffer_get_byte_size(*out_buffer, &byte_size), "size")) {
    return 0;
  }
  if (model->input_count > 0) {
    return !Failed(phal_buffer_copy_from_host(
                       *out_buffer, 0, model->inputs[index].data, byte_size),
                   "upload");
  }
  void* pattern = malloc(byte_size > 0 ? (size_t)byte_size : 1);
  if (pattern == NULL) {
    fprintf(stderr, "run_model: out of memory for parameter %zu\n", index);
    return 0;
  }
  host_array_fill_pattern(parameter->element_type, pattern,
                          ElementCount(parameter->element_type, byte_size));
  int ok = !Failed(
      phal_buffer_copy_from_host(*out_buffer, 0, pattern, byte_size), "upload");
  free(pattern);
  return ok;
}

static int UploadArguments(const phal_executable_t* executable,
                           phal_device_t* device, const options_t* options,
                           const model_t* model, phal_buffer_t** arguments,
                           size_t count) {
  if (model->input_count > 0 && model->input_count != count) {
    fprintf(stderr, "run_model: %s has %zu parameter(s) but %zu input(s)\n",
            options->model_path, count, model->input_count);
    return 0;
  }
  for (size_t i = 0; i < count; ++i) {
    phal_buffer_desc_t parameter;
    memset(&parameter, 0, sizeof(parameter));
    parameter.struct_size = sizeof(parameter);
    if (Failed(phal_executable_get_parameter_desc(executable, i, &parameter),
               "parameter desc") ||
        !UploadArgument(device, &parameter, i, options, model, &arguments[i])) {
      return 0;
    }
  }
  return 1;
}

/* One blocking execute; the new result buffers are the caller's. */
static int TimeRun(phal_executable_t* executable, phal_buffer_t** arguments,
                   size_t argument_count, phal_buffer_t** results,
                   size_t result_count, double* out_ms) {
  double start = NowMs();
  phal_status_t* status = phal_executable_execute(
      executable, arguments, argument_count, results, result_count);
  *out_ms = NowMs() - start;
  return !Failed(status, "execute");
}

static void PrintValues(phal_element_type_t element_type, const void* data,
                        size_t count) {
  for (size_t i = 0; i < count && i < kValuesShown; ++i) {
    double value = 0;
    if (!host_array_value(element_type, data, i, &value)) {
      printf(" (%s values not shown)", phal_element_type_name(element_type));
      return;
    }
    printf(" %.6g", value);
  }
  if (count > kValuesShown) printf(" ... (%zu values)", count);
}

/* Downloads each result and prints its shape and first values. */
static int PrintResults(const phal_executable_t* executable,
                        phal_buffer_t* const* results, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    phal_buffer_desc_t desc;
    memset(&desc, 0, sizeof(desc));
    desc.struct_size = sizeof(desc);
    uint64_t byte_size = 0;
    if (Failed(phal_executable_get_result_desc(executable, i, &desc),
               "result desc") ||
        Failed(phal_buffer_get_byte_size(results[i], &byte_size), "size")) {
      return 0;
    }
    void* data = malloc(byte_size > 0 ? (size_t)byte_size : 1);
    if (data == NULL) {
      fprintf(stderr, "run_model: out of memory for result %zu\n", i);
      return 0;
    }
    if (Failed(phal_buffer_copy_to_host(results[i], 0, data, byte_size),
               "download")) {
      free(data);
      return 0;
    }
    char shape[128];
    host_array_format_shape(desc.element_type, desc.rank, desc.dims, shape,
                            sizeof(shape));
    printf("  result %zu: %s =", i, shape);
    PrintValues(desc.element_type, data,
                ElementCount(desc.element_type, byte_size));
    printf("\n");
    free(data);
  }
  return 1;
}

/* Uploads the arguments, runs 1 + repeat times, prints the timings and the
 * results of the last run. */
static int RunExecutable(phal_executable_t* executable, phal_device_t* device,
                         const options_t* options, const model_t* model,
                         double compile_ms) {
  size_t parameter_count = 0;
  size_t result_count = 0;
  if (Failed(phal_executable_get_parameter_count(executable, &parameter_count),
             "parameter count") ||
      Failed(phal_executable_get_result_count(executable, &result_count),
             "result count")) {
    return 0;
  }
  phal_buffer_t** arguments = calloc(parameter_count + 1, sizeof(*arguments));
  phal_buffer_t** results = calloc(result_count + 1, sizeof(*results));
  double* run_ms = calloc((size_t)options->repeat, sizeof(*run_ms));
  int ok = arguments != NULL && results != NULL && run_ms != NULL;
  if (!ok) fprintf(stderr, "run_model: out of memory\n");
  ok = ok && UploadArguments(executable, device, options, model, arguments,
                             parameter_count);
  double first_run_ms = 0;
  ok = ok && TimeRun(executable, arguments, parameter_count, results,
                     result_count, &first_run_ms);
  for (long i = 0; ok && i < options->repeat; ++i) {
    FreeBuffers(results, result_count);
    ok = TimeRun(executable, arguments, parameter_count, results, result_count,
                 &run_ms[i]);
  }
  if (ok) {
    printf("  compile    %9.3f ms\n", compile_ms);
    printf("  first run  %9.3f ms\n", first_run_ms);
    printf("  median run %9.3f ms of %ld runs\n",
           Median(run_ms, (size_t)options->repeat), options->repeat);
    ok = PrintResults(executable, results, result_count);
  }
  FreeBuffers(arguments, parameter_count);
  FreeBuffers(results, result_count);
  free(arguments);
  free(results);
  free(run_ms);
  return ok;
}

static void PrintDevice(const phal_client_t* client, phal_device_t* device,
                        size_t index) {
  phal_device_properties_t properties;
  memset(&properties, 0, sizeof(properties));
  properties.struct_size = sizeof(properties);
  phal_plugin_info_t plugin;
  memset(&plugin, 0, sizeof(plugin));
  plugin.struct_size = sizeof(plugin);
  size_t plugin_index = 0;
  if (Failed(phal_device_get_properties(device, &properties), "properties") ||
      Failed(phal_device_get_plugin_index(device, &plugin_index), "plugin") ||
      Failed(phal_client_get_plugin_info(client, plugin_index, &plugin),
             "plugin info")) {
    printf("device %zu\n", index);
    return;
  }
  printf("device %zu: %s (plugin %s)\n", index, properties.name, plugin.name);
}

/* Compiles and runs the model on device `index`. Returns 1 when it ran, 0
 * when the device's plugin cannot run it, -1 on an error (reported). */
static int RunOnDevice(phal_client_t* client, size_t index,
                       const options_t* options, const model_t* model) {
  phal_device_t* device = NULL;
  if (Failed(phal_client_get_device(client, index, &device), "device")) {
    return -1;
  }
  PrintDevice(client, device, index);
  phal_compile_options_t compile_options;
  memset(&compile_options, 0, sizeof(compile_options));
  compile_options.struct_size = sizeof(compile_options);
  compile_options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  compile_options.source_name = options->model_path;
  phal_executable_t* executable = NULL;
  double start = NowMs();
  phal_status_t* status = phal_executable_compile(
      device, model->text, model->text_size, &compile_options, &executable);
  double compile_ms = NowMs() - start;
  if (phal_status_get_code(status) == PHAL_UNIMPLEMENTED) {
    printf("  cannot run this model: %s\n", phal_status_get_message(status));
    phal_status_free(status);
    return 0;
  }
  if (Failed(status, "compile")) return -1;
  int ran = RunExecutable(executable, device, options, model, compile_ms);
  phal_executable_free(executable);
  return ran ? 1 : -1;
}

/* Runs the model on every device; counts those it ran on. */
static int RunOnEveryDevice(phal_client_t* client, const options_t* options,
                            const model_t* model, size_t* out_ran,
                            size_t* out_device_count) {
  *out_ran = 0;
  if (Failed(phal_client_get_device_count(client, out_device_count),
             "device count")) {
    return 0;
  }
  for (size_t i = 0; i < *out_device_count; ++i) {
    int ran = RunOnDevice(client, i, options, model);
    if (ran < 0) return 0;
    *out_ran += (size_t)ran;
  }
  if (*out_ran > 0) return 1;
  fprintf(stderr, "run_model: no device ran %s; 'polyhal plugins' says why\n",
          options->model_path);
  return 0;
}

int main(int argc, char** argv) {
  options_t options;
  if (!ParseOptions(argc, argv, &options)) {
    fprintf(stderr,
            "usage: run_model [--repeat N] MODEL.hlo [INPUT.npy ...]\n");
    return 2;
  }
  model_t model;
  if (!LoadModel(&options, &model)) {
    FreeModel(&model);
    return 1;
  }
  phal_client_t* client = NULL;
  size_t ran = 0;
  size_t device_count = 0;
  int ok = !Failed(phal_client_create(NULL, &client), "client create") &&
           RunOnEveryDevice(client, &options, &model, &ran, &device_count);
  phal_client_destroy(client);
  FreeModel(&model);
  if (!ok) return 1;
  printf("run_model: %s ran on %zu of %zu device(s)\n", options.model_path, ran,
         device_count);
  return 0;
}
