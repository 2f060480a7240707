"""The C source of ``bcast_call``: a CPython extension whose one function,
``call(address, *arguments)``, calls a generated C function in the time
ctypes takes to convert its first argument.

Why: on a 16x16 array the arithmetic of a compiled program is nothing; what
a call costs is the checks, the result's allocation and the call into C.
Through ``ctypes`` that call took about as long as the checks and the
allocation together (docs/performance.md, "Per-call cost"), because ctypes
converts each argument through its ``argtypes`` objects and builds a
libffi frame per call. ``call`` reads each argument as the generated code
takes it: a Python int as an ``int64_t``, an ndarray as its data pointer
(read where ``c_runtime.DATA_OFFSET`` found it, the same read the fast
path made through ctypes), and calls the function through a pointer of
its arity with the GIL released, as ctypes does. ``data(array)`` is that
read alone, for the ``out=`` overlap test.

Every parameter of a generated function is a pointer or an ``int64_t``
(``c_emitter``: one pointer per array, each dynamic size after it, an
``index`` as ``int64_t``); both travel in the same 8-byte integer slots on
every 64-bit ABI bcast builds for, so one pointer type per arity,
``void (*)(intptr_t, ...)``, calls them all. ``c_runtime.own_caller`` uses
it only where pointers are 8 bytes and for at most ``MAX_ARGUMENTS``
parameters; anything else keeps ctypes."""

from __future__ import annotations

MAX_ARGUMENTS = 32
"""The most parameters ``call`` passes (a program with more keeps ctypes)."""

MODULE = "bcast_call"


def _source() -> str:
    types = "\n".join(
        f"typedef void (*f{n})({', '.join(['intptr_t'] * n) or 'void'});" for n in range(MAX_ARGUMENTS + 1))
    cases = "\n".join(
        f"    case {n}: ((f{n})function)({', '.join(f'v[{k}]' for k in range(n))}); break;"
        for n in range(MAX_ARGUMENTS + 1))
    return f"""\
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

typedef char pointers_are_8_bytes[sizeof(void *) == 8 && sizeof(intptr_t) == 8 ? 1 : -1];

static PyTypeObject *array_type = NULL;
static Py_ssize_t data_offset = -1;

{types}

static PyObject *setup(PyObject *self, PyObject *const *args, Py_ssize_t n) {{
    if (n != 2 || !PyType_Check(args[0])) {{
        PyErr_SetString(PyExc_TypeError, "setup(ndarray, data_offset)");
        return NULL;
    }}
    Py_ssize_t offset = PyLong_AsSsize_t(args[1]);
    if (offset < 0) {{
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a negative data offset");
        return NULL;
    }}
    Py_INCREF(args[0]);
    Py_XDECREF(array_type);
    array_type = (PyTypeObject *)args[0];
    data_offset = offset;
    Py_RETURN_NONE;
}}

static PyObject *call(PyObject *self, PyObject *const *args, Py_ssize_t n) {{
    intptr_t v[{MAX_ARGUMENTS} + 1];
    if (n < 1 || n - 1 > {MAX_ARGUMENTS}) {{
        PyErr_SetString(PyExc_TypeError, "call(address, *arguments): too many arguments");
        return NULL;
    }}
    void *function = PyLong_AsVoidPtr(args[0]);
    if (function == NULL) {{
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "call of a null function");
        return NULL;
    }}
    for (Py_ssize_t k = 1; k < n; k++) {{
        PyObject *o = args[k];
        if (array_type != NULL && Py_TYPE(o) == array_type) {{
            v[k - 1] = *(intptr_t *)((char *)o + data_offset);
        }} else if (PyLong_CheckExact(o)) {{
            long long x = PyLong_AsLongLong(o);
            if (x == -1 && PyErr_Occurred()) return NULL;
            v[k - 1] = (intptr_t)x;
        }} else {{
            PyErr_Format(PyExc_TypeError, "call: argument %zd is neither an int nor an ndarray", k);
            return NULL;
        }}
    }}
    Py_BEGIN_ALLOW_THREADS
    switch (n - 1) {{
{cases}
    }}
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}}

static PyObject *data(PyObject *self, PyObject *o) {{
    if (array_type == NULL || Py_TYPE(o) != array_type) {{
        PyErr_SetString(PyExc_TypeError, "data(ndarray)");
        return NULL;
    }}
    return PyLong_FromVoidPtr(*(void **)((char *)o + data_offset));
}}

/* The fast path (c_runtime.native_fast): one plan per function, made once;
   fast(plan, args, out) checks a call against it and runs it, or returns
   the plan's miss object when the call is not the common case. */

typedef struct {{
    int index;              /* an index argument: a Python int in int64 range */
    PyArray_Descr *descr;   /* the declared dtype (a reference held) */
    int ndim;
    npy_intp dims[NPY_MAXDIMS];
    npy_intp nbytes;
    PyObject *shape;        /* the shape as a tuple, for output() (a reference held) */
}} param;

typedef struct {{
    void *function;
    Py_ssize_t nargs, nres;
    param *args, *res;
    PyObject *miss, *output;
    npy_intp small;         /* results up to this many bytes are allocated here */
}} plan;

static void plan_free(PyObject *capsule) {{
    plan *p = (plan *)PyCapsule_GetPointer(capsule, "bcast_call.plan");
    if (p == NULL) return;
    for (Py_ssize_t k = 0; k < p->nargs + p->nres; k++) {{
        Py_XDECREF(p->args[k].descr);
        Py_XDECREF(p->args[k].shape);
    }}
    Py_XDECREF(p->miss);
    Py_XDECREF(p->output);
    PyMem_Free(p->args);
    PyMem_Free(p);
}}

/* spec: None (an index) or (dtype, shape tuple) */
static int read_param(PyObject *spec, param *q) {{
    memset(q, 0, sizeof *q);
    if (spec == Py_None) {{
        q->index = 1;
        return 0;
    }}
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 2) {{
        PyErr_SetString(PyExc_TypeError, "plan: a spec is None or (dtype, shape)");
        return -1;
    }}
    PyArray_Descr *descr = NULL;
    if (!PyArray_DescrConverter(PyTuple_GET_ITEM(spec, 0), &descr)) return -1;
    q->descr = descr;
    PyObject *shape = PyTuple_GET_ITEM(spec, 1);
    if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) > NPY_MAXDIMS) {{
        PyErr_SetString(PyExc_TypeError, "plan: a shape is a tuple of at most NPY_MAXDIMS ints");
        return -1;
    }}
    q->ndim = (int)PyTuple_GET_SIZE(shape);
    npy_intp count = 1;
    for (int d = 0; d < q->ndim; d++) {{
        q->dims[d] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, d));
        if (q->dims[d] < 0) {{
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "plan: a negative size");
            return -1;
        }}
        count *= q->dims[d];
    }}
    q->nbytes = count * PyDataType_ELSIZE(descr);
    Py_INCREF(shape);
    q->shape = shape;
    return 0;
}}

/* plan(address, arguments, results, miss, output, small) -> a capsule */
static PyObject *make_plan(PyObject *self, PyObject *const *args, Py_ssize_t n) {{
    if (n != 6 || !PyTuple_Check(args[1]) || !PyTuple_Check(args[2])) {{
        PyErr_SetString(PyExc_TypeError, "plan(address, arguments, results, miss, output, small)");
        return NULL;
    }}
    Py_ssize_t nargs = PyTuple_GET_SIZE(args[1]), nres = PyTuple_GET_SIZE(args[2]);
    if (nargs + nres > {MAX_ARGUMENTS}) {{
        PyErr_SetString(PyExc_TypeError, "plan: too many arguments");
        return NULL;
    }}
    void *function = PyLong_AsVoidPtr(args[0]);
    if (function == NULL) {{
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "plan of a null function");
        return NULL;
    }}
    npy_intp small = PyLong_AsSsize_t(args[5]);
    if (small == -1 && PyErr_Occurred()) return NULL;
    plan *p = PyMem_Calloc(1, sizeof *p);
    param *params = PyMem_Calloc(nargs + nres + 1, sizeof *params);
    if (p == NULL || params == NULL) {{
        PyMem_Free(p);
        PyMem_Free(params);
        return PyErr_NoMemory();
    }}
    p->function = function;
    p->nargs = nargs;
    p->nres = nres;
    p->args = params;
    p->res = params + nargs;
    p->small = small;
    Py_INCREF(args[3]);
    p->miss = args[3];
    Py_INCREF(args[4]);
    p->output = args[4];
    PyObject *capsule = PyCapsule_New(p, "bcast_call.plan", plan_free);
    if (capsule == NULL) {{
        Py_DECREF(p->miss);
        Py_DECREF(p->output);
        PyMem_Free(params);
        PyMem_Free(p);
        return NULL;
    }}
    for (Py_ssize_t k = 0; k < nargs + nres; k++) {{
        PyObject *spec = PyTuple_GET_ITEM(k < nargs ? args[1] : args[2], k < nargs ? k : k - nargs);
        if (read_param(spec, &params[k]) < 0 || (k >= nargs && params[k].index)) {{
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "plan: a result is an array");
            Py_DECREF(capsule);
            return NULL;
        }}
    }}
    return capsule;
}}

/* Whether o is an exact ndarray of q's dtype and shape, C-contiguous and
   aligned (and writeable when asked): used as it is, as the checked path would. */
static int matches(PyObject *o, const param *q, int flags) {{
    if (Py_TYPE(o) != &PyArray_Type) return 0;
    PyArrayObject *a = (PyArrayObject *)o;
    if (PyArray_NDIM(a) != q->ndim) return 0;
    npy_intp *dims = PyArray_DIMS(a);
    for (int d = 0; d < q->ndim; d++)
        if (dims[d] != q->dims[d]) return 0;
    if ((PyArray_FLAGS(a) & flags) != flags) return 0;
    PyArray_Descr *descr = PyArray_DESCR(a);
    return descr == q->descr || PyArray_EquivTypes(descr, q->descr);
}}

static void run(void *function, intptr_t *v, Py_ssize_t n) {{
    Py_BEGIN_ALLOW_THREADS
    switch (n) {{
{cases}
    }}
    Py_END_ALLOW_THREADS
}}

/* fast(plan, args, out): the call's result(s), or the plan's miss object */
static PyObject *fast(PyObject *self, PyObject *const *args, Py_ssize_t n) {{
    if (n != 3) {{
        PyErr_SetString(PyExc_TypeError, "fast(plan, args, out)");
        return NULL;
    }}
    plan *p = (plan *)PyCapsule_GetPointer(args[0], "bcast_call.plan");
    if (p == NULL) return NULL;
    PyObject *given = args[1], *out = args[2];
    intptr_t v[{MAX_ARGUMENTS} + 1];
    char *low[{MAX_ARGUMENTS} + 1];
    npy_intp size[{MAX_ARGUMENTS} + 1];
    Py_ssize_t ranges = 0;
    const int in_flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED;
    if (!PyTuple_CheckExact(given) || PyTuple_GET_SIZE(given) != p->nargs) goto miss;
    for (Py_ssize_t k = 0; k < p->nargs; k++) {{
        PyObject *o = PyTuple_GET_ITEM(given, k);
        const param *q = &p->args[k];
        if (q->index) {{
            int overflow = 0;
            if (!PyLong_CheckExact(o)) goto miss;
            long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
            if (overflow) goto miss;
            if (x == -1 && PyErr_Occurred()) return NULL;
            v[k] = (intptr_t)x;
            continue;
        }}
        if (!matches(o, q, in_flags)) goto miss;
        v[k] = (intptr_t)PyArray_DATA((PyArrayObject *)o);
        low[ranges] = (char *)v[k];
        size[ranges++] = q->nbytes;
    }}
    if (out == Py_None) {{
        PyObject *results[{MAX_ARGUMENTS} + 1];
        for (Py_ssize_t j = 0; j < p->nres; j++) {{
            const param *q = &p->res[j];
            PyObject *r;
            if (q->nbytes <= p->small) {{
                Py_INCREF(q->descr);
                r = PyArray_NewFromDescr(&PyArray_Type, q->descr, q->ndim, (npy_intp *)q->dims, NULL, NULL, 0, NULL);
            }} else {{
                r = PyObject_CallFunctionObjArgs(p->output, q->shape, (PyObject *)q->descr, NULL);
                if (r != NULL && !matches(r, q, in_flags | NPY_ARRAY_WRITEABLE)) {{
                    Py_DECREF(r);
                    PyErr_SetString(PyExc_TypeError, "fast: output() gave an array of another kind");
                    r = NULL;
                }}
            }}
            if (r == NULL) {{
                for (Py_ssize_t i = 0; i < j; i++) Py_DECREF(results[i]);
                return NULL;
            }}
            results[j] = r;
            v[p->nargs + j] = (intptr_t)PyArray_DATA((PyArrayObject *)r);
        }}
        run(p->function, v, p->nargs + p->nres);
        if (p->nres == 1) return results[0];
        PyObject *tuple = PyTuple_New(p->nres);
        if (tuple == NULL) {{
            for (Py_ssize_t i = 0; i < p->nres; i++) Py_DECREF(results[i]);
            return NULL;
        }}
        for (Py_ssize_t i = 0; i < p->nres; i++) PyTuple_SET_ITEM(tuple, i, results[i]);
        return tuple;
    }}
    PyObject *const *outs;
    Py_ssize_t count;
    if (Py_TYPE(out) == &PyArray_Type) {{
        outs = &args[2];
        count = 1;
    }} else if (PyTuple_CheckExact(out)) {{
        outs = &PyTuple_GET_ITEM(out, 0);
        count = PyTuple_GET_SIZE(out);
    }} else if (PyList_CheckExact(out)) {{
        outs = PySequence_Fast_ITEMS(out);
        count = PyList_GET_SIZE(out);
    }} else {{
        goto miss;
    }}
    if (count != p->nres) goto miss;
    for (Py_ssize_t j = 0; j < count; j++) {{
        PyObject *o = outs[j];
        const param *q = &p->res[j];
        if (!matches(o, q, in_flags | NPY_ARRAY_WRITEABLE)) goto miss;
        char *start = PyArray_DATA((PyArrayObject *)o);
        /* contiguous arrays share memory exactly when their byte ranges meet */
        if (q->nbytes > 0)
            for (Py_ssize_t i = 0; i < ranges; i++)
                if (size[i] > 0 && low[i] < start + q->nbytes && start < low[i] + size[i]) goto miss;
        v[p->nargs + j] = (intptr_t)start;
        low[ranges] = start;
        size[ranges++] = q->nbytes;
    }}
    /* the list's items are held by the list, which the caller holds: take
       references first, as the call releases the GIL */
    PyObject *held[{MAX_ARGUMENTS} + 1];
    for (Py_ssize_t j = 0; j < count; j++) {{
        held[j] = outs[j];
        Py_INCREF(held[j]);
    }}
    run(p->function, v, p->nargs + p->nres);
    if (count == 1) return held[0];
    PyObject *tuple = PyTuple_New(count);
    if (tuple == NULL) {{
        for (Py_ssize_t j = 0; j < count; j++) Py_DECREF(held[j]);
        return NULL;
    }}
    for (Py_ssize_t j = 0; j < count; j++) PyTuple_SET_ITEM(tuple, j, held[j]);
    return tuple;
miss:
    Py_INCREF(p->miss);
    return p->miss;
}}

static PyMethodDef methods[] = {{
    {{"plan", (PyCFunction)(void (*)(void))make_plan, METH_FASTCALL, "plan(address, arguments, results, miss, output, small)"}},
    {{"fast", (PyCFunction)(void (*)(void))fast, METH_FASTCALL, "fast(plan, args, out)"}},
    {{"data", (PyCFunction)data, METH_O, "data(ndarray): its data pointer"}},
    {{"setup", (PyCFunction)(void (*)(void))setup, METH_FASTCALL, "setup(ndarray, data_offset)"}},
    {{"call", (PyCFunction)(void (*)(void))call, METH_FASTCALL, "call(address, *arguments)"}},
    {{NULL, NULL, 0, NULL}},
}};

static struct PyModuleDef module = {{PyModuleDef_HEAD_INIT, "{MODULE}", NULL, -1, methods}};

PyMODINIT_FUNC PyInit_{MODULE}(void) {{
    import_array();
    return PyModule_Create(&module);
}}
"""


SOURCE = _source()
