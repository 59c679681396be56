/* tasks.h: a small pthread pool that lends threads to rigid.h (THREADS in rigid.h's doc block),
   for tools/bench_scenes.c and tests/test_threads.c. Header-only, static; C99 and C++; include
   rigid.h first, build with _POSIX_C_SOURCE 200809L (clock_gettime, sched_yield), link with
   -lpthread.

      tasks_pool pool;
      rg_world_def wd = rg_world_default_def();
      tasks_start(&pool, 2);      (one thread started: the stepping thread is the other worker)
      tasks_lend(&pool, &wd);     (worker_count and the callbacks)
      ... rg_world_create(&wd, NULL), steps ...
      tasks_stop(&pool);          (after the last step)

   Tasks wait in a queue and are handed out oldest first in ranges of at least min_range items,
   each a share of the items left (tasks_run_range), so that a slow range (a crowded corner of
   the scene) or a worker that comes late does not hold the others up. The pool's threads are
   workers 1 to n - 1; the thread that calls tasks_finish (the one that steps the world: one per
   pool) is worker 0 and runs ranges of the task until it is done. A worker without a range
   looks for one for TASKS_SPIN seconds, yielding, then sleeps on a condition variable: the
   machine may be shared, and the solver's long stretches between the parallel stages must not
   cost a core. */
#ifndef RIGID_TASKS_H
#define RIGID_TASKS_H

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#define TASKS_MAX_WORKERS 64
#define TASKS_MAX_QUEUED 16
#define TASKS_SPLIT 2
#ifndef TASKS_SPIN
#define TASKS_SPIN 0.001              /* seconds a worker without a range looks before it sleeps */
#endif

typedef struct tasks_job {
    rg_task_fn *task;
    void *context;
    int count, min_range;         /* items, and the fewest a range takes (but the last) */
    int next;                     /* the first item not handed out */
    int done;                     /* items finished */
    int queued;                   /* the slot holds a task not yet finished */
    unsigned long order;          /* enqueue order: ranges go to the oldest task first */
} tasks_job;

typedef struct tasks_pool tasks_pool;

typedef struct tasks_thread {
    tasks_pool *pool;
    int worker;
} tasks_thread;

struct tasks_pool {
    pthread_mutex_t mutex;
    pthread_cond_t work;          /* a task has ranges to hand out, or the pool stops */
    pthread_cond_t finished;      /* a task's last range finished */
    pthread_t threads[TASKS_MAX_WORKERS];
    tasks_thread thread_args[TASKS_MAX_WORKERS];
    int worker_count, started, stopping;
    tasks_job jobs[TASKS_MAX_QUEUED];
    unsigned long enqueued;       /* tasks enqueued so far */
    long running;                 /* ranges running now */
    long ranges[TASKS_MAX_WORKERS]; /* ranges run by each worker */
};

/* The oldest task with ranges left, or NULL; the mutex is held. */
static inline tasks_job *tasks_pending(tasks_pool *pool) {
    tasks_job *best = NULL;
    int i;
    for (i = 0; i < TASKS_MAX_QUEUED; ++i) {
        tasks_job *job = &pool->jobs[i];
        if (job->queued && job->next < job->count && (!best || job->order < best->order)) best = job;
    }
    return best;
}

/* The next range of job, run as `worker` with the mutex released meanwhile; the mutex is held.
   A range takes 1 / (TASKS_SPLIT workers) of the items left (guided self-scheduling), at least
   min_range: long ranges while many are left, short ones at the end, where a worker that came
   late would otherwise leave the others waiting on its range. */
static inline void tasks_run_range(tasks_pool *pool, tasks_job *job, int worker) {
    int start = job->next, left = job->count - start, split = TASKS_SPLIT * pool->worker_count;
    int take = (left + split - 1) / split, end;
    if (take < job->min_range) take = job->min_range;
    end = take < left ? start + take : job->count;
    job->next = end;
    ++pool->running;
    ++pool->ranges[worker];
    pthread_mutex_unlock(&pool->mutex);
    job->task(start, end, worker, job->context);
    pthread_mutex_lock(&pool->mutex);
    --pool->running;
    job->done += end - start;
    if (job->done == job->count) pthread_cond_broadcast(&pool->finished);
}

static inline double tasks_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A worker runs ranges while there are any; once there are none it keeps looking, yielding
   between looks, for TASKS_SPIN seconds before it sleeps: a step's tasks come in bursts, and a
   thread woken from sleep arrives too late for a short task (a virtual machine's idle CPU takes
   tens of microseconds to wake). */
static inline void *tasks_thread_main(void *argument) {
    tasks_thread *self = (tasks_thread *)argument;
    tasks_pool *pool = self->pool;
    double idle_since = tasks_seconds();
    pthread_mutex_lock(&pool->mutex);
    while (!pool->stopping) {
        tasks_job *job = tasks_pending(pool);
        if (job) {
            tasks_run_range(pool, job, self->worker);
            idle_since = -1;
        } else if (idle_since < 0) {
            idle_since = tasks_seconds();
        } else if (tasks_seconds() - idle_since < TASKS_SPIN) {
            pthread_mutex_unlock(&pool->mutex);
            sched_yield();
            pthread_mutex_lock(&pool->mutex);
        } else {
            pthread_cond_wait(&pool->work, &pool->mutex);
            idle_since = -1;
        }
    }
    pthread_mutex_unlock(&pool->mutex);
    return NULL;
}

/* rg_world_def.enqueue_task: user_context is the pool. Runs the task inline and returns NULL when
   the queue is full or the pool has one worker. */
static inline void *tasks_enqueue(rg_task_fn *task, int item_count, int min_range, void *task_context,
                                  void *user_context) {
    tasks_pool *pool = (tasks_pool *)user_context;
    tasks_job *job = NULL;
    int i;
    if (min_range < 1) min_range = 1;
    pthread_mutex_lock(&pool->mutex);
    ++pool->enqueued;
    for (i = 0; i < TASKS_MAX_QUEUED && !job; ++i)
        if (!pool->jobs[i].queued) job = &pool->jobs[i];
    if (!job || pool->worker_count < 2) {
        pthread_mutex_unlock(&pool->mutex);
        task(0, item_count, 0, task_context);
        return NULL;
    }
    job->task = task;
    job->context = task_context;
    job->count = item_count;
    job->min_range = min_range;
    job->next = job->done = 0;
    job->queued = 1;
    job->order = pool->enqueued;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->mutex);
    return job;
}

/* rg_world_def.finish_task: the calling thread runs the task's ranges as worker 0 until none is
   left, then waits for the others'. */
static inline void tasks_finish(void *handle, void *user_context) {
    tasks_pool *pool = (tasks_pool *)user_context;
    tasks_job *job = (tasks_job *)handle;
    pthread_mutex_lock(&pool->mutex);
    while (job->done < job->count) {
        if (job->next < job->count) tasks_run_range(pool, job, 0);
        else pthread_cond_wait(&pool->finished, &pool->mutex);
    }
    job->queued = 0;
    pthread_mutex_unlock(&pool->mutex);
}

/* A pool of worker_count workers (1 to TASKS_MAX_WORKERS): worker_count - 1 threads. Returns 0
   when they cannot be started (the pool is then stopped). */
static inline int tasks_start(tasks_pool *pool, int worker_count) {
    int i;
    memset(pool, 0, sizeof *pool);
    if (worker_count < 1 || worker_count > TASKS_MAX_WORKERS) return 0;
    pool->worker_count = worker_count;
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->work, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (i = 1; i < worker_count; ++i) {
        pool->thread_args[i].pool = pool;
        pool->thread_args[i].worker = i;
        if (pthread_create(&pool->threads[i], NULL, tasks_thread_main, &pool->thread_args[i]) != 0) break;
        ++pool->started;
    }
    return pool->started == worker_count - 1;
}

/* Stops and joins the threads; the pool's tasks must all be finished. */
static inline void tasks_stop(tasks_pool *pool) {
    int i;
    if (pool->worker_count == 0) return;
    pthread_mutex_lock(&pool->mutex);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->mutex);
    for (i = 1; i <= pool->started; ++i) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->finished);
    pthread_cond_destroy(&pool->work);
    pthread_mutex_destroy(&pool->mutex);
    pool->worker_count = 0;
}

/* The world def's threads: the pool's workers and callbacks. */
static inline void tasks_lend(tasks_pool *pool, rg_world_def *def) {
    def->worker_count = pool->worker_count;
    def->enqueue_task = tasks_enqueue;
    def->finish_task = tasks_finish;
    def->user_task_context = pool;
}

#endif
