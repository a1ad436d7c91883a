// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/pmuprof: open/release, ioctls, read, poll.
 *
 * One opener at a time (-EBUSY for the second). open() needs CAP_PERFMON or
 * CAP_SYS_ADMIN; an opener without CAP_SYS_ADMIN or CAP_SYSLOG is not
 * "privileged": its samples carry no kernel IPs (0) and no kernel stacks.
 * The open file holds a module reference (fops.owner), so rmmod is refused
 * while a session exists; release() stops a running session.
 *
 * Every ioctl struct is copied with copy_struct_from_user(): size below
 * *_SIZE_VER0 -> -EINVAL, size above PAGE_SIZE -> -E2BIG, bytes beyond the
 * kernel's struct not zero -> -E2BIG. Errors change no state.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/uaccess.h>
#include <linux/poll.h>
#include <linux/capability.h>
#include <linux/sched/signal.h>
#include <linux/pid.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task.h>

#include "pp_linux.h"

struct pp_session pp_sess;
atomic_t pp_open_count = ATOMIC_INIT(0);

/* Supported PMUPROF_CF_* of this build: all (data addresses by decode). */
#define PP_SUPPORTED_CF PMUPROF_CF__ALL

static int pp_copy_in(void *dst, size_t ksize, size_t ver0, void __user *uarg)
{
	u32 usize;
	int err;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < ver0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	err = copy_struct_from_user(dst, ksize, uarg, usize);
	if (err)
		return err;
	*(u32 *)dst = usize; /* size is always the first member */
	return 0;
}

static void pp_fill_info(struct pp_session *s, struct pmuprof_info *info)
{
	session__fill_info(info, &pp_caps, nr_cpu_ids, num_online_cpus(), s->privileged,
			   plat_paging_levels());
}

static long pp_ioc_get_info(struct pp_session *s, void __user *uarg)
{
	struct pmuprof_info info;
	u32 usize;
	int err;

	err = pp_copy_in(&info, sizeof(info), PMUPROF_INFO_SIZE_VER0, uarg);
	if (err)
		return err;
	usize = info.size;
	pp_fill_info(s, &info);
	if (copy_to_user(uarg, &info, min_t(size_t, usize, sizeof(info))))
		return -EFAULT;
	return 0;
}

/* Resolve the caller's pid to the global tgid the NMI filter compares. */
static int pp_check_pid(const struct pmuprof_config *cfg, s32 *global_tgid, const char **why)
{
	struct task_struct *t;
	const struct cred *me = current_cred(), *tc;
	struct mm_struct *mm;
	bool ok;

	if (cfg->target != PMUPROF_TARGET_PID)
		return 0;
	rcu_read_lock();
	t = pid_task(find_vpid(cfg->pid), PIDTYPE_TGID);
	if (!t) {
		rcu_read_unlock();
		*why = "target pid does not exist";
		return -ESRCH;
	}
	/* ptrace_may_access() is not exported; this is __ptrace_may_access()
	 * for PTRACE_MODE_READ_REALCREDS minus the LSM hook: our own thread
	 * group; else the caller's real uid and gid equal all of the target's
	 * uids and gids, or CAP_SYS_PTRACE in the target's user namespace;
	 * and a non-dumpable target (PR_SET_DUMPABLE 0 as ssh-agent does, a
	 * setuid program) needs CAP_SYS_PTRACE in its mm's namespace even
	 * with equal ids. */
	tc = __task_cred(t);
	ok = same_thread_group(t, current) ||
	     (uid_eq(me->uid, tc->euid) && uid_eq(me->uid, tc->suid) && uid_eq(me->uid, tc->uid) &&
	      gid_eq(me->gid, tc->egid) && gid_eq(me->gid, tc->sgid) && gid_eq(me->gid, tc->gid)) ||
	     ns_capable(tc->user_ns, CAP_SYS_PTRACE);
	if (ok && !same_thread_group(t, current)) {
		task_lock(t);
		mm = t->mm;
		if (mm && get_dumpable(mm) != SUID_DUMP_USER &&
		    !ns_capable(mm->user_ns, CAP_SYS_PTRACE))
			ok = false;
		task_unlock(t);
	}
	*global_tgid = task_tgid_nr(t); /* samples carry initial-namespace pids */
	rcu_read_unlock();
	if (!ok) {
		*why = "no permission to profile that pid (it must be one you may ptrace: same uid "
		       "and gid and dumpable, or CAP_SYS_PTRACE)";
		return -EPERM;
	}
	return 0;
}

static long pp_ioc_configure(struct pp_session *s, void __user *uarg)
{
	struct pmuprof_config *cfg;
	struct session_plan *plan;
	struct pmuprof_info info;
	struct session_env env;
	const char *why = NULL;
	int err;

	cfg = pp_kzalloc(sizeof(*cfg));
	plan = pp_kzalloc(sizeof(*plan));
	if (!cfg || !plan) {
		err = -ENOMEM;
		goto out;
	}
	err = pp_copy_in(cfg, sizeof(*cfg), PMUPROF_CONFIG_SIZE_VER0, uarg);
	if (err)
		goto out;
	err = session__check_op(s->state, SESSION_OP_CONFIGURE, &why);
	if (err)
		goto out;
	pp_fill_info(s, &info);
	env.info = &info;
	env.caps = &pp_caps;
	env.supported_flags = PP_SUPPORTED_CF;
	err = session__validate(&env, cfg, plan, &why);
	if (!err)
		err = pp_check_pid(cfg, &plan->cap.pid, &why);
	if (err)
		goto out;
	if (plan->cap.inherit_check_creds) {
		/* CF_INHERIT: descendants as pp_check_pid judges the target,
		 * per sample (capture.h): an opener with CAP_SYS_PTRACE sees
		 * them all, others those with its ids that stayed dumpable. */
		plan->cap.inherit_check_creds = !has_capability_noaudit(current, CAP_SYS_PTRACE);
		plan->cap.opener_uid = __kuid_val(current_uid());
		plan->cap.opener_gid = __kgid_val(current_gid());
	}

	/* Validated: only now replace the previous configuration. */
	pp_session_free_rings(s);
	s->plan = *plan;
	err = pp_session_alloc_rings(s);
	if (err) {
		why = "cannot allocate the per-CPU rings; try a smaller ring_size";
		s->state = PMUPROF_STATE_IDLE;
		goto out;
	}
	s->state = session__next_state(s->state, SESSION_OP_CONFIGURE);
out:
	if (err && why)
		pr_info_ratelimited(PP_NAME ": CONFIGURE: %s (%d)\n", why, err);
	pp_kfree(plan);
	pp_kfree(cfg);
	return err;
}

static long pp_ioc_start(struct pp_session *s)
{
	const char *why;
	int err;

	err = session__check_op(s->state, SESSION_OP_START, &why);
	if (err)
		return err;
	err = pp_session_start(s);
	if (err)
		return err;
	s->state = session__next_state(s->state, SESSION_OP_START);
	return 0;
}

static long pp_ioc_stop(struct pp_session *s)
{
	const char *why;
	int err;

	err = session__check_op(s->state, SESSION_OP_STOP, &why);
	if (err)
		return err;
	if (s->state == PMUPROF_STATE_RUNNING) {
		pp_session_stop(s);
		s->state = session__next_state(s->state, SESSION_OP_STOP);
	}
	wake_up_interruptible_all(&s->wq);
	return 0;
}

static long pp_ioc_get_stats(struct pp_session *s, void __user *uarg)
{
	struct pmuprof_stats *st;
	struct pmuprof_cpu_stats cs;
	struct pmuprof_cpu_stats __user *ucpus;
	u64 pebs_check[PEBS_CHECK_NR] = {0};
	u32 usize, n, csize, cpu;
	int err;

	st = pp_kzalloc(sizeof(*st));
	if (!st)
		return -ENOMEM;
	err = pp_copy_in(st, sizeof(*st), PMUPROF_STATS_SIZE_VER0, uarg);
	if (err)
		goto out;
	usize = st->size;
	n = st->nr_cpus;
	csize = st->cpu_stats_size;
	ucpus = u64_to_user_ptr(st->cpus_ptr);
	if (ucpus && (csize < sizeof(struct pmuprof_cpu_stats) || csize > PAGE_SIZE)) {
		err = -EINVAL;
		goto out;
	}
	memset(&st->total, 0, sizeof(st->total));
	memset(st->event_samples, 0, sizeof(st->event_samples));
	memset(st->event_lost, 0, sizeof(st->event_lost));
	memset(st->event_period, 0, sizeof(st->event_period));
	st->ticks_missed = 0;
	st->ustack_copy_bytes = 0;
	st->ustack_copy_short = 0;
	st->pebs_agree = st->pebs_disagree = 0;
	st->pebs_not_applicable = st->pebs_undecodable = 0;
	st->state = s->state;
	st->start_ns = s->start_ns;
	st->stop_ns = s->stop_ns;

	for_each_possible_cpu (cpu) {
		struct pp_cpu *pc = per_cpu_ptr(pp_cpus, cpu);

		capture__cpu_stats(&pc->cap, &cs, st->event_samples, st->event_lost);
		cs.read_records = READ_ONCE(pc->read_records);
		cs.read_bytes = READ_ONCE(pc->read_bytes);
		capture__stats_add(&st->total, &cs);
		st->ticks_missed += READ_ONCE(pc->ticks_missed);
		capture__copy_stats(&pc->cap, &st->ustack_copy_bytes, &st->ustack_copy_short);
		capture__pebs_check_stats(&pc->cap, pebs_check);
		if (ucpus && cpu < n) {
			void __user *dst = (u8 __user *)ucpus + (size_t)cpu * csize;

			if (copy_to_user(dst, &cs, sizeof(cs)) ||
			    (csize > sizeof(cs) &&
			     clear_user((u8 __user *)dst + sizeof(cs), csize - sizeof(cs)))) {
				err = -EFAULT;
				goto out;
			}
		}
	}
	if (s->state != PMUPROF_STATE_IDLE) {
		u32 i;

		for (i = 0; i < s->plan.cfg.nr_events && i < PMUPROF_MAX_EVENTS; i++)
			st->event_period[i] = s->plan.cfg.events[i].period;
		/* PMU events: the largest current period over the CPUs (freq
		 * mode and throttling move it), once counters ran */
		for (i = 0; i < s->plan.pmu.nr; i++) {
			u64 maxp = 0;

			for_each_cpu (cpu, s->targets) {
				u64 p = READ_ONCE(per_cpu_ptr(pp_cpus, cpu)->pmu.period[i]);

				if (p > maxp)
					maxp = p;
			}
			if (maxp)
				st->event_period[s->plan.pmu.a[i].event] = maxp;
		}
		if (s->plan.clock_event >= 0) {
			u64 maxp = 0;

			for_each_online_cpu (cpu) {
				u64 p = READ_ONCE(per_cpu_ptr(pp_cpus, cpu)->clock_period_ns);

				if (cpumask_test_cpu(cpu, s->targets) && p > maxp)
					maxp = p;
			}
			st->event_period[s->plan.clock_event] =
				maxp ? maxp : s->plan.clock_period_ns;
		}
	}
	/* IPIs in flight while running show as unanswered until they land */
	st->ipis_unanswered = st->total.ipis_sent > st->total.ipis_taken
				      ? st->total.ipis_sent - st->total.ipis_taken
				      : 0;
	st->missed = st->ticks_missed + st->total.ipis_outstanding + st->ipis_unanswered;
	st->replans = s->replans;
	st->pebs_agree = pebs_check[PEBS_CHECK_AGREE];
	st->pebs_disagree = pebs_check[PEBS_CHECK_DISAGREE];
	st->pebs_not_applicable = pebs_check[PEBS_CHECK_NA];
	st->pebs_undecodable = pebs_check[PEBS_CHECK_UNDECODABLE];
	st->nr_cpus = nr_cpu_ids;
	st->size = usize;
	if (copy_to_user(uarg, st, min_t(size_t, usize, sizeof(*st))))
		err = -EFAULT;
out:
	pp_kfree(st);
	return err;
}

static long pp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pp_session *s = &pp_sess;
	void __user *uarg = (void __user *)arg;
	long ret;

	if (_IOC_TYPE(cmd) != PMUPROF_IOC_MAGIC)
		return -ENOTTY;
	mutex_lock(&s->lock);
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(PMUPROF_IOC_GET_INFO):
		ret = pp_ioc_get_info(s, uarg);
		break;
	case _IOC_NR(PMUPROF_IOC_CONFIGURE):
		ret = pp_ioc_configure(s, uarg);
		break;
	case _IOC_NR(PMUPROF_IOC_START):
		ret = pp_ioc_start(s);
		break;
	case _IOC_NR(PMUPROF_IOC_STOP):
		ret = pp_ioc_stop(s);
		break;
	case _IOC_NR(PMUPROF_IOC_GET_STATS):
		ret = pp_ioc_get_stats(s, uarg);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&s->lock);
	return ret;
}

/*
 * Copy whole records to the user, CPU by CPU starting where the previous
 * read() stopped. After STOP, losses no LOST record reported yet (the ring
 * stayed full to the end) become a final LOST record: once a CPU's ring is
 * drained, ring__flush_lost() writes it. That is a producer-side call made
 * from the reader's CPU, safe because the producers are quiescent after
 * pp_session_stop() (sampling off, synchronize_rcu()). Called with s->lock.
 */
static ssize_t pp_drain(struct pp_session *s, char __user *buf, size_t len)
{
	unsigned int i, cpu = s->read_cpu;
	size_t off = 0;
	bool full = false;

	for (i = 0; i < nr_cpu_ids && !full; i++, cpu = (cpu + 1) % nr_cpu_ids) {
		struct pp_cpu *pc;
		const struct pmuprof_record_header *rec;

		if (!cpumask_test_cpu(cpu, s->targets))
			continue;
		pc = per_cpu_ptr(pp_cpus, cpu);
		if (!pc->ring_mem)
			continue;
		for (;;) {
			while ((rec = ring__peek(&pc->ring)) != NULL) {
				u32 size = rec->size;

				if (size > len - off) {
					full = true;
					break;
				}
				if (copy_to_user(buf + off, rec, size))
					return off ? (ssize_t)off : -EFAULT;
				ring__consume(&pc->ring, rec);
				off += size;
				pc->read_records++;
				pc->read_bytes += size;
			}
			/* Drained after STOP: report what no LOST record did yet. */
			if (full || s->state != PMUPROF_STATE_STOPPED ||
			    ring__flush_lost(&pc->ring, s->stop_ns) <= 0)
				break;
		}
		if (full)
			break;
	}
	s->read_cpu = cpu % nr_cpu_ids;
	return off;
}

static bool pp_read_ready(struct pp_session *s)
{
	u32 state = READ_ONCE(s->state);

	return state == PMUPROF_STATE_STOPPED || state == PMUPROF_STATE_IDLE ||
	       pp_session_has_data(s, 1);
}

static ssize_t pp_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	struct pp_session *s = &pp_sess;
	ssize_t ret;

	if (len < PMUPROF_READ_MIN)
		return -EINVAL;
	for (;;) {
		mutex_lock(&s->lock);
		if (s->state == PMUPROF_STATE_IDLE) {
			mutex_unlock(&s->lock);
			return -EINVAL; /* nothing configured: nothing will ever come */
		}
		if (s->plan.cap.ustack_copy &&
		    len < PMUPROF_READ_MIN_COPY(s->plan.cap.ustack_copy)) {
			mutex_unlock(&s->lock);
			return -EINVAL; /* a record of this session may not fit */
		}
		ret = pp_drain(s, buf, len);
		if (ret || s->state == PMUPROF_STATE_STOPPED) {
			mutex_unlock(&s->lock);
			return ret; /* data, error, or 0 = end of stream */
		}
		mutex_unlock(&s->lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(s->wq, pp_read_ready(s)))
			return -ERESTARTSYS;
	}
}

static __poll_t pp_poll(struct file *file, poll_table *wait)
{
	struct pp_session *s = &pp_sess;
	u32 state;

	poll_wait(file, &s->wq, wait);
	state = READ_ONCE(s->state);
	if (state == PMUPROF_STATE_STOPPED)
		return EPOLLIN | EPOLLRDNORM | (pp_session_has_data(s, 1) ? 0 : EPOLLHUP);
	if (state == PMUPROF_STATE_IDLE)
		return EPOLLERR;
	/* Readable past the wake-up watermark, as the NMI side wakes us: a
	 * reader that polls with a timeout drains smaller amounts itself. */
	if (pp_session_has_data(s, s->plan.cfg.wakeup_bytes))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static int pp_open(struct inode *inode, struct file *file)
{
	struct pp_session *s = &pp_sess;

	if (!perfmon_capable())
		return -EPERM;
	if (atomic_cmpxchg(&pp_open_count, 0, 1) != 0)
		return -EBUSY;
	mutex_lock(&s->lock);
	s->state = PMUPROF_STATE_IDLE;
	s->privileged = capable(CAP_SYS_ADMIN) || capable(CAP_SYSLOG);
	s->read_cpu = 0;
	s->start_ns = 0;
	s->stop_ns = 0;
	memset(&s->plan, 0, sizeof(s->plan));
	s->plan.clock_event = -1;
	cpumask_clear(s->targets);
	mutex_unlock(&s->lock);
	return stream_open(inode, file);
}

static int pp_release(struct inode *inode, struct file *file)
{
	struct pp_session *s = &pp_sess;

	mutex_lock(&s->lock);
	if (s->state == PMUPROF_STATE_RUNNING)
		pp_session_stop(s);
	pp_session_free_rings(s);
	cpumask_clear(s->targets);
	s->state = PMUPROF_STATE_IDLE;
	mutex_unlock(&s->lock);
	atomic_set(&pp_open_count, 0);
	return 0;
}

static const struct file_operations pp_fops = {
	.owner = THIS_MODULE,
	.open = pp_open,
	.release = pp_release,
	.read = pp_read,
	.poll = pp_poll,
	.unlocked_ioctl = pp_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

static struct miscdevice pp_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = PP_NAME,
	.fops = &pp_fops,
	.mode = 0600,
};

int pp_chardev_init(void)
{
	mutex_init(&pp_sess.lock);
	init_waitqueue_head(&pp_sess.wq);
	pp_sess.plan.clock_event = -1;
	if (!zalloc_cpumask_var(&pp_sess.targets, GFP_KERNEL))
		return -ENOMEM;
	atomic_long_inc(&pp_allocs_module);
	return misc_register(&pp_misc);
}

void pp_chardev_exit(void)
{
	misc_deregister(&pp_misc);
	/* No file can be open (it would hold the module), so no session runs. */
	free_cpumask_var(pp_sess.targets);
	atomic_long_dec(&pp_allocs_module);
}
