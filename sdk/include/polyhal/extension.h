/*
 * Polyhal ABI 1.11 (1.3-1.11) -- typed extension chains: what the `next` member
 * of an extensible struct points at.
 *
 * Every extensible struct of the ABI has a `const void* next`. Since ABI 1.3
 * it is either NULL or the first element of a chain of extension structs,
 * each of which starts with a phal_extension_base_t (as Vulkan's structs
 * start with sType/pNext and PJRT's with PJRT_Extension_Base). An extension
 * adds members to the struct heading the chain without changing that
 * struct's layout, and without a new ABI version for readers that do not
 * know it.
 *
 * Rules for whoever builds a chain:
 *   - Each element sets `struct_size` to the size of its whole struct
 *     (phal_extension_base_t included), `type` to its
 *     phal_extension_type_t, and `next` to the following element or NULL.
 *   - A chain is finite and acyclic, and names each type at most once.
 *   - The chain and its elements are owned by whoever owns the struct that
 *     heads it, and are valid as long as that struct is: for an argument,
 *     during the call only. A callee that keeps a value copies it.
 *
 * Rules for whoever reads a chain (the core and plugins alike):
 *   - Walk from the head struct's `next` along each element's `next` until
 *     NULL; phal_extension_find does it.
 *   - Skip, without error, every element whose type the reader does not
 *     know: it comes from a newer ABI or is meant for another reader.
 *     PHAL_EXTENSION_TYPE_NONE is never a valid type and is skipped too.
 *   - Read no member beyond an element's `struct_size`: members past it
 *     read as absent (zero), as for every other extensible struct.
 *   - Never write an element's header, never reorder or relink the chain,
 *     and keep no pointer into it after the call returns.
 *   - In an out-struct (one the caller provides and the callee fills, such
 *     as phal_device_properties_t), the chain holds out-extensions the
 *     caller allocated: the callee fills the members of the types it knows,
 *     up to each element's struct_size, exactly as it fills the head struct.
 *
 * The core does not forward chains across layers: a chain an application
 * passes to libpolyhal is read by libpolyhal, and a struct the core hands a
 * plugin carries only elements the core built.
 */
#ifndef POLYHAL_EXTENSION_H_
#define POLYHAL_EXTENSION_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The type of an extension struct. The numeric values are part of the ABI:
 * new types are appended with new values, none is ever renumbered or
 * reused. ABI 1.3 defines the chain; ABI 1.11 defines its first
 * extension.
 */
typedef enum phal_extension_type {
  PHAL_EXTENSION_TYPE_NONE = 0, /* reserved: never names an extension */
  /* phal_host_reductions_t (transport.h), on phal_host_transport_t::next:
   * ABI 1.11 */
  PHAL_EXTENSION_TYPE_HOST_REDUCTIONS = 1
} phal_extension_type_t;

/*
 * The header every extension struct starts with. `type` holds a
 * phal_extension_type_t; it is a uint32_t so that a reader may hold a value
 * from a newer ABI that its own enum does not list.
 */
typedef struct phal_extension_base {
  uint32_t struct_size; /* sizeof the whole extension struct */
  uint32_t type;        /* a phal_extension_type_t */
  const struct phal_extension_base* next; /* the next element, or NULL */
} phal_extension_base_t;

/*
 * The first element of `chain` (a struct's `next`, which may be NULL) whose
 * type is `type`, or NULL when the chain holds none. The result points into
 * the caller's chain; cast it to the extension's own struct after checking
 * its struct_size.
 */
static inline const phal_extension_base_t* phal_extension_find(
    const void* chain, uint32_t type) {
  const phal_extension_base_t* element = (const phal_extension_base_t*)chain;
  if (type == (uint32_t)PHAL_EXTENSION_TYPE_NONE) return NULL;
  for (; element != NULL; element = element->next) {
    if (element->type == type) return element;
  }
  return NULL;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_EXTENSION_H_ */
