<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AlertRules</name>
    <message>
        <source>cannot be reached: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>paused for %1</source>
        <translation>已暂停 %1</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上的 %1</translation>
    </message>
    <message>
        <source>delayq: %1</source>
        <translation>delayq：%1</translation>
    </message>
    <message>
        <source>delayq: %1 is back to normal</source>
        <translation>delayq：%1 已恢复正常</translation>
    </message>
    <message>
        <source>read again</source>
        <translation>已可读取</translation>
    </message>
    <message>
        <source>oldest overdue above its limit</source>
        <translation>最久逾期超过上限</translation>
    </message>
    <message>
        <source>dead tasks above their limit</source>
        <translation>死信任务超过上限</translation>
    </message>
    <message>
        <source>no consumer</source>
        <translation>无消费者</translation>
    </message>
    <message>
        <source>a stalled consumer</source>
        <translation>消费者停滞</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>cannot be reached</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>oldest overdue %1</source>
        <translation>最久逾期 %1</translation>
    </message>
    <message>
        <source>nothing overdue</source>
        <translation>没有逾期任务</translation>
    </message>
    <message>
        <source>%1 dead</source>
        <translation>死信 %1</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>%1 live consumers, %2 due</source>
        <translation>在线消费者 %1 个，已到期 %2 个</translation>
    </message>
    <message>
        <source>no longer: %1; now: %2</source>
        <translation>不再：%1；当前：%2</translation>
    </message>
    <message>
        <source>%1 will run %2 late at %3</source>
        <translation>%1 将于 %3 延迟 %2 运行</translation>
    </message>
    <message>
        <source>forecast lateness above its limit</source>
        <translation>预测延迟超过阈值</translation>
    </message>
    <message>
        <source>peak %1 late at %2</source>
        <translation>%2 峰值延迟 %1</translation>
    </message>
    <message>
        <source>no lateness expected</source>
        <translation>预计无延迟</translation>
    </message>
</context>
<context>
    <name>HistoryText</name>
    <message>
        <source>pushed</source>
        <translation>已推送</translation>
    </message>
    <message>
        <source>claimed</source>
        <translation>已领取</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>died</source>
        <translation>已死亡</translation>
    </message>
    <message>
        <source>lease expired</source>
        <translation>租约到期</translation>
    </message>
    <message>
        <source>rescheduled</source>
        <translation>已改期</translation>
    </message>
    <message>
        <source>requeued</source>
        <translation>已重新入队</translation>
    </message>
    <message>
        <source>acked</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>由 %1</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation>第 %1 次尝试</translation>
    </message>
    <message>
        <source>forced (a worker held it)</source>
        <translation>强制（当时有工作进程持有）</translation>
    </message>
    <message>
        <source>was due %1</source>
        <translation>原定 %1 到期</translation>
    </message>
    <message>
        <source>retry at %1</source>
        <translation>%1 重试</translation>
    </message>
    <message>
        <source>due again %1</source>
        <translation>%1 再次到期</translation>
    </message>
    <message>
        <source>due %1</source>
        <translation>%1 到期</translation>
    </message>
</context>
<context>
    <name>Thresholds</name>
    <message>
        <source>oldest overdue %1 is above %2</source>
        <translation>最久逾期 %1 超过 %2</translation>
    </message>
    <message>
        <source>due now %1 is above %2</source>
        <translation>现已到期 %1 超过 %2</translation>
    </message>
    <message>
        <source>dead %1 is above %2</source>
        <translation>死信 %1 超过 %2</translation>
    </message>
    <message>
        <source>failed in the last hour %1 is above %2</source>
        <translation>近一小时失败 %1 超过 %2</translation>
    </message>
    <message>
        <source>oldest overdue &gt; %1</source>
        <translation>最久逾期 &gt; %1</translation>
    </message>
    <message>
        <source>due now &gt; %1</source>
        <translation>现已到期 &gt; %1</translation>
    </message>
    <message>
        <source>dead &gt; %1</source>
        <translation>死信 &gt; %1</translation>
    </message>
    <message>
        <source>failed in the last hour &gt; %1</source>
        <translation>近一小时失败 &gt; %1</translation>
    </message>
    <message>
        <source>no limits</source>
        <translation>无限制</translation>
    </message>
    <message>
        <source>no consumer: %1 due, oldest %2 late</source>
        <translation>无消费者：%1 个已到期，最久逾期 %2</translation>
    </message>
    <message>
        <source>stalled: a worker holds tasks and acked none for %1</source>
        <translation>停滞：有工作进程持有任务，但 %1 内未确认任何任务</translation>
    </message>
    <message>
        <source>oldest overdue %1 is above %2, held back by its rate limit %3</source>
        <translation>最久逾期 %1 超过 %2，受速率限制 %3 压住</translation>
    </message>
    <message>
        <source>oldest overdue %1 is above %2, held back by its cap of %3</source>
        <translation>最久逾期 %1 超过 %2，受并发上限 %3 压住</translation>
    </message>
</context>
<context>
    <name>delayq::ui::AboutBox</name>
    <message>
        <source>About delayq-admin</source>
        <translation>关于 delayq-admin</translation>
    </message>
    <message>
        <source>delayq-admin %1</source>
        <translation>delayq-admin %1</translation>
    </message>
    <message>
        <source>Operate delayq queues on Redis: pending tasks by due time, the timeline, push, cancel, reschedule and a test worker.

Qt %1</source>
        <translation>在 Redis 上管理 delayq 队列：按到期时间排列的待处理任务、时间线、推送、取消、改期，以及测试用的工作进程。

Qt %1</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ActionSummary</name>
    <message>
        <source>no longer existed</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <source>was running, so not replaced</source>
        <translation>正在执行，因此未被替换</translation>
    </message>
    <message>
        <source>were running, so not replaced</source>
        <translation>正在执行，因此未被替换</translation>
    </message>
    <message>
        <source>was already running and was not changed</source>
        <translation>已在执行，未作改动</translation>
    </message>
    <message>
        <source>were already running and were not changed</source>
        <translation>已在执行，未作更改</translation>
    </message>
    <message>
        <source>was dead (requeue it from the Dead tab)</source>
        <translation>是死信（请在“死信”标签页中重新入队）</translation>
    </message>
    <message>
        <source>were dead (requeue them from the Dead tab)</source>
        <translation>是死信（请在“死信”标签页中重新入队）</translation>
    </message>
    <message>
        <source>was pending, not dead</source>
        <translation>处于待处理，不是死信</translation>
    </message>
    <message>
        <source>were pending, not dead</source>
        <translation>处于待处理，不是死信</translation>
    </message>
    <message>
        <source>already existed with that id and was left as it was</source>
        <translation>该 id 已存在，保持原样</translation>
    </message>
    <message>
        <source>already existed with that id and were left as they were</source>
        <translation>的 ID 已存在，保持原样</translation>
    </message>
    <message>
        <source>was larger than the queue&apos;s max_payload</source>
        <translation>超过了队列的 max_payload</translation>
    </message>
    <message>
        <source>were larger than the queue&apos;s max_payload</source>
        <translation>超过了队列的 max_payload</translation>
    </message>
    <message>
        <source>Could not %1: %2</source>
        <translation>无法%1：%2</translation>
    </message>
    <message>
        <source>Pushed %1 due %2 to queue %3.</source>
        <translation>已推送 %1 到队列 %3，到期时间 %2。</translation>
    </message>
    <message>
        <source>Replaced %1, now due %2, in queue %3.</source>
        <translation>已替换队列 %3 中的 %1，现在到期时间为 %2。</translation>
    </message>
    <message>
        <source>%1 %2 of 1 task in queue %3.</source>
        <translation>%1：队列 %3 的 1 个任务中 %2 个。</translation>
    </message>
    <message>
        <source>%1 %2 of %3 tasks in queue %4.</source>
        <translation>%1：队列 %4 的 %3 个任务中 %2 个。</translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <translation>%1 个任务%2。</translation>
    </message>
    <message>
        <source>finished within its dedup window and was not pushed again</source>
        <translation>在其去重窗口内已结束，未再次推送</translation>
    </message>
    <message>
        <source>finished within their dedup window and were not pushed again</source>
        <translation>在其去重窗口内已结束，未再次推送</translation>
    </message>
    <message>
        <source>Debounced %1 in queue %2: now due %3.</source>
        <translation>已防抖队列 %2 中的 %1：现在到期时间为 %3。</translation>
    </message>
    <message>
        <source>%1 is running in queue %2: one follow-up is due %3.</source>
        <translation>%1 正在队列 %2 中执行：一个后续任务将于 %3 到期。</translation>
    </message>
    <message>
        <source>Not pushed: %1 finished in queue %2 within its dedup window, which ends %3.</source>
        <translation>未推送：%1 已在队列 %2 中结束，仍在其去重窗口内，窗口于 %3 结束。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::AlertCenter</name>
    <message>
        <source>&amp;Alerts</source>
        <translation>告警(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Desktop notifications</source>
        <translation>桌面通知(&amp;D)</translation>
    </message>
    <message>
        <source>While the window is minimised or in the tray, say on the desktop when a queue crosses a threshold, has no consumer, stalls or stays paused, and when a server cannot be reached</source>
        <translation>窗口最小化或在托盘中时，在桌面上提示：队列超过阈值、没有消费者、停滞或长时间暂停，以及服务器无法连接</translation>
    </message>
    <message>
        <source>&amp;Watch servers</source>
        <translation>监视服务器(&amp;W)</translation>
    </message>
    <message>
        <source>Show delayq-admin</source>
        <translation>显示 delayq-admin</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>No saved profile (File → Connect… saves one)</source>
        <translation>没有已保存的配置（文件 → 连接… 可保存）</translation>
    </message>
</context>
<context>
    <name>delayq::ui::AuditTab</name>
    <message>
        <source>Filter by who or what</source>
        <translation>按操作人或操作内容筛选</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>ACL user</source>
        <translation>ACL 用户</translation>
    </message>
    <message>
        <source>OS user@host</source>
        <translation>系统用户@主机</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务数</translation>
    </message>
    <message>
        <source>Ids / detail</source>
        <translation>ID / 详情</translation>
    </message>
    <message>
        <source>A plain sorted set keeps no audit trail: only delayq queues do.</source>
        <translation>普通有序集合没有审计记录：只有 delayq 队列才有。</translation>
    </message>
    <message>
        <source>Open a queue to see who changed what in it.</source>
        <translation>打开一个队列，查看谁在其中改了什么。</translation>
    </message>
    <message>
        <source>Entries shown: %1 (newest first)</source>
        <translation>显示的条目：%1（最新的在前）</translation>
    </message>
    <message>
        <source>Entries shown: %1 of %2 (newest first)</source>
        <translation>显示的条目：%1 / %2（最新的在前）</translation>
    </message>
    <message>
        <source>due %1</source>
        <comment>a reschedule&apos;s new due time</comment>
        <translation>到期 %1</translation>
    </message>
</context>
<context>
    <name>delayq::ui::BackfillDialog</name>
    <message>
        <source>Backfill %1</source>
        <translation>补发 %1</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>To (not included)</source>
        <translation>到（不含）</translation>
    </message>
    <message>
        <source>The window must start before it ends.</source>
        <translation>时间窗口的开始必须早于结束。</translation>
    </message>
    <message>
        <source>The window must end by now: a backfill makes past fires.</source>
        <translation>时间窗口必须在现在或之前结束：补发只生成过去的触发。</translation>
    </message>
    <message>
        <source>The rule has no fires in this window.</source>
        <translation>规则在此时间窗口内没有触发。</translation>
    </message>
    <message>
        <source>The window holds more than %1 fires, the most one backfill makes: make it shorter.</source>
        <translation>时间窗口内的触发超过 %1 次（单次补发的上限）：请缩短窗口。</translation>
    </message>
    <message numerus="yes">
        <source>%n fire(s) of the rule; those the schedule made already are not made again.</source>
        <translation>
            <numerusform>规则的 %n 次触发；计划已生成过的不会重复生成。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>delayq::ui::BinClient</name>
    <message>
        <source>read the recycle bin</source>
        <translation>读取回收站</translation>
    </message>
    <message>
        <source>restore from the recycle bin</source>
        <translation>从回收站恢复</translation>
    </message>
</context>
<context>
    <name>delayq::ui::Confirmation</name>
    <message>
        <source>%1 task</source>
        <translation>%1 个任务</translation>
    </message>
    <message>
        <source>%1 tasks</source>
        <translation>%1 个任务</translation>
    </message>
    <message>
        <source>%1 %2 task</source>
        <comment>number, adjective</comment>
        <translation>%1 个%2任务</translation>
    </message>
    <message>
        <source>%1 %2 tasks</source>
        <comment>number, adjective</comment>
        <translation>%1 个%2任务</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ConnectionDialog</name>
    <message>
        <source>Connect to Redis</source>
        <translation>连接到 Redis</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>a name to save this connection under</source>
        <translation>保存此连接所用的名称</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>&amp;URL</translation>
    </message>
    <message>
        <source>kept for this session unless remembered below</source>
        <translation>仅在本次会话中保留，除非在下方选择记住</translation>
    </message>
    <message>
        <source>kept for this session only, never saved</source>
        <translation>仅在本次会话中保留，从不保存</translation>
    </message>
    <message>
        <source>Pass&amp;word</source>
        <translation>密码(&amp;W)</translation>
    </message>
    <message>
        <source>Remember the password in the system keychain</source>
        <translation>在系统钥匙串中记住密码</translation>
    </message>
    <message>
        <source>This build has no keychain support (QtKeychain): the password is asked for each session.</source>
        <translation>此版本未包含钥匙串支持（QtKeychain）：每次会话都需要输入密码。</translation>
    </message>
    <message>
        <source>&amp;Key prefix</source>
        <translation>键前缀(&amp;K)</translation>
    </message>
    <message>
        <source>Read-only: look, never change anything</source>
        <translation>只读：仅查看，不做任何更改</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>Password from the system keychain.</source>
        <translation>密码来自系统钥匙串。</translation>
    </message>
    <message>
        <source>The system keychain holds no password for this server.</source>
        <translation>系统钥匙串中没有此服务器的密码。</translation>
    </message>
    <message>
        <source>The password from the system keychain was for another server: cleared.</source>
        <translation>系统钥匙串中的密码属于另一台服务器：已清除。</translation>
    </message>
    <message>
        <source>Password saved in the system keychain.</source>
        <translation>密码已保存到系统钥匙串。</translation>
    </message>
    <message>
        <source>No system keychain: the password is kept for this session only.</source>
        <translation>没有系统钥匙串：密码仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>a profile name is 1 to 64 letters, digits, spaces or ._-</source>
        <translation>配置名称须为 1 到 64 个字母、数字、空格或 ._-</translation>
    </message>
    <message>
        <source>type a URL such as redis://127.0.0.1:6379</source>
        <translation>请输入 URL，例如 redis://127.0.0.1:6379</translation>
    </message>
    <message>
        <source>redis://[user:password@]host:6379/0 or unix:///path/redis.sock</source>
        <translation>redis://[用户:密码@]主机:6379/0 或 unix:///路径/redis.sock</translation>
    </message>
    <message>
        <source>The password kept for this session was for another server: cleared.</source>
        <translation>本次会话保留的密码属于另一台服务器：已清除。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ConnectionNotice</name>
    <message>
        <source>%1 has not answered for %2 s — reconnecting…</source>
        <translation>%1 已 %2 秒未应答 — 正在重新连接…</translation>
    </message>
    <message>
        <source>The server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>连接…</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Disconnected: %1 — retrying every 2 s</source>
        <translation>已断开：%1 — 每 2 秒重试一次</translation>
    </message>
    <message>
        <source>Not connected: %1 — retrying cannot fix this: change the URL, user, password or TLS settings in Connect…</source>
        <translation>未连接：%1 — 重试无法解决：请在“连接…”中修改 URL、用户、密码或 TLS 设置</translation>
    </message>
    <message>
        <source>The figures shown are from %1 as of %2 and are not live.</source>
        <translation>显示的数据来自 %1，截至 %2，并非实时。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ConnectionStatus</name>
    <message>
        <source>No answer from %1 for %2 s — reconnecting…</source>
        <translation>%1 已 %2 秒无应答 — 正在重新连接…</translation>
    </message>
    <message>
        <source>The server or the network in between has not answered the last request. The app gives up on it after 4 s, then reconnects every 2 s.</source>
        <translation>服务器或中间的网络未应答上一个请求。应用在 4 秒后放弃该请求，然后每 2 秒重新连接一次。</translation>
    </message>
    <message>
        <source>master %1 of %2</source>
        <translation>%2 的主节点 %1</translation>
    </message>
    <message>
        <source>%1 · Redis %2 · round trip %3 ms · server clock %4%5 ms</source>
        <translation>%1 · Redis %2 · 往返 %3 毫秒 · 服务器时钟 %4%5 毫秒</translation>
    </message>
    <message>
        <source> · cluster: 1 master</source>
        <translation> · 集群：1 个主节点</translation>
    </message>
    <message>
        <source> · cluster: %1 masters</source>
        <translation> · 集群：%1 个主节点</translation>
    </message>
    <message>
        <source> · read-only</source>
        <translation> · 只读</translation>
    </message>
    <message>
        <source>Server clock minus this machine&apos;s clock: times in scripts use the server&apos;s</source>
        <translation>服务器时钟减去本机时钟：脚本中的时间以服务器为准</translation>
    </message>
    <message>
        <source>TLS NOT VERIFIED · </source>
        <translation>TLS 未验证 · </translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not checked (insecure=1): anyone between this machine and Redis can read and change the traffic.</source>
        <translation>未检查服务器证书（insecure=1）：本机与 Redis 之间的任何人都能读取并篡改通信内容。</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Disconnected: %1 — retrying every 2 s</source>
        <translation>已断开：%1 — 每 2 秒重试一次</translation>
    </message>
    <message>
        <source>Not connected: %1 — retrying cannot fix this: change the settings in Connect…</source>
        <translation>未连接：%1 — 重试无法解决：请在“连接…”中修改设置</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
</context>
<context>
    <name>delayq::ui::DeliveryTargetField</name>
    <message>
        <source>amqp://, https:// or pipe:CMD</source>
        <translation>amqp://、https:// 或 pipe:CMD</translation>
    </message>
    <message>
        <source>Hand each due task to a RabbitMQ exchange (amqp://user:pw@host/vhost?exchange=E&amp;routing_key=K), a webhook (http:// or https://) or a consumer process reading JSON lines (pipe:CMD). A task is acked only once the target confirmed it.</source>
        <translation>把每个到期任务交给 RabbitMQ 交换机（amqp://user:pw@host/vhost?exchange=E&amp;routing_key=K）、webhook（http:// 或 https://）或读取 JSON 行的消费进程（pipe:CMD）。只有目标确认后，任务才会被确认完成。</translation>
    </message>
    <message>
        <source>not a target: use amqp://, http(s):// or pipe:CMD</source>
        <translation>不是投递目标：请使用 amqp://、http(s):// 或 pipe:CMD</translation>
    </message>
    <message>
        <source>%1 refused or did not answer: %2</source>
        <translation>%1 拒绝或没有应答：%2</translation>
    </message>
</context>
<context>
    <name>delayq::ui::DesktopNotifier</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
</context>
<context>
    <name>delayq::ui::DueText</name>
    <message>
        <source>%1, %2</source>
        <comment>due time, relative time</comment>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>%1ms</source>
        <translation>%1毫秒</translation>
    </message>
    <message>
        <source>%1d</source>
        <translation>%1天</translation>
    </message>
    <message>
        <source>%1h</source>
        <translation>%1小时</translation>
    </message>
    <message>
        <source>%1m</source>
        <translation>%1分钟</translation>
    </message>
    <message>
        <source>%1s</source>
        <translation>%1秒</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>two units of a duration</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>%1后</translation>
    </message>
    <message>
        <source>%1 overdue</source>
        <translation>逾期%1</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <comment>a moment that passed</comment>
        <translation>%1前</translation>
    </message>
    <message>
        <source>expired now, waiting for a reap</source>
        <translation>刚刚过期，等待回收</translation>
    </message>
    <message>
        <source>expired %1 ago, waiting for a reap</source>
        <translation>已于%1前过期，等待回收</translation>
    </message>
    <message>
        <source>type a delay such as 30s, 5m or 1h30m (0 runs it now)</source>
        <translation>请输入延迟，如 30s、5m 或 1h30m（0 表示立即执行）</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ExportAction</name>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Write the queue&apos;s tasks, a tab&apos;s or the selected ones to a file delayq import reads</source>
        <translation>将队列的任务、某个标签页的任务或选中的任务写入 delayq import 可读取的文件</translation>
    </message>
    <message>
        <source>Export tasks</source>
        <translation>导出任务</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stopping after the current step…</source>
        <translation>将在当前步骤完成后停止…</translation>
    </message>
    <message>
        <source>Exporting %1: %2 of %3 tasks…</source>
        <translation>正在导出 %1：已写 %2 / 共 %3 个任务…</translation>
    </message>
    <message>
        <source>Export of %1 failed: %2 (no file was written)</source>
        <translation>导出 %1 失败：%2（未写入任何文件）</translation>
    </message>
    <message>
        <source>Export of %1 cancelled: no file was written.</source>
        <translation>已取消导出 %1：未写入任何文件。</translation>
    </message>
    <message>
        <source>Exported %1 lines of %2 to %3.</source>
        <translation>已将 %2 的 %1 行导出到 %3。</translation>
    </message>
    <message>
        <source>%1 listed ids without readable data were left out.</source>
        <translation>%1 个有 id 但数据不可读的任务未导出。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ExportDialog</name>
    <message>
        <source>active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>Export tasks</source>
        <translation>导出任务</translation>
    </message>
    <message>
        <source>Export every member of %1 with its score, as JSON lines that &quot;delayq import --plain&quot; reads back.</source>
        <translation>将 %1 的每个成员及其分数导出为 JSON 行，&quot;delayq import --plain&quot; 可将其导回。</translation>
    </message>
    <message>
        <source>Export tasks of %1 with every field, as JSON lines that &quot;delayq import&quot; reads back.</source>
        <translation>将 %1 的任务连同全部字段导出为 JSON 行，&quot;delayq import&quot; 可将其导回。</translation>
    </message>
    <message>
        <source>The whole key</source>
        <translation>整个键</translation>
    </message>
    <message>
        <source>The whole queue (pending, active and dead)</source>
        <translation>整个队列（待处理、执行中和死信）</translation>
    </message>
    <message>
        <source>The %1 tasks (the current tab)</source>
        <translation>%1任务（当前标签页）</translation>
    </message>
    <message>
        <source>The selected tasks: %1</source>
        <translation>选中的任务：%1 个</translation>
    </message>
    <message>
        <source>any id or payload</source>
        <translation>任意 id 或负载</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Only tasks containing:</source>
        <translation>仅包含以下文本的任务：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <source>JSON lines (*.jsonl);;All files (*)</source>
        <translation>JSON 行 (*.jsonl);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ExportSteps</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>delayq::ui::FindBar</name>
    <message>
        <source>Jump to time</source>
        <translation>跳转到时间</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭 (Esc)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the search; the matches found so far stay listed</source>
        <translation>停止搜索；已找到的结果保留在列表中</translation>
    </message>
    <message>
        <source>Find text</source>
        <translation>查找文本</translation>
    </message>
    <message>
        <source>Find id</source>
        <translation>查找 ID</translation>
    </message>
    <message>
        <source>Text in the messages, or a time: 2026-12-01 09:30, now, +10m, -1h</source>
        <translation>消息中的文本，或时间：2026-12-01 09:30、now、+10m、-1h</translation>
    </message>
    <message>
        <source>Task id, or a time: 2026-12-01 09:30, now, +10m, -1h</source>
        <translation>任务 ID，或时间：2026-12-01 09:30、now、+10m、-1h</translation>
    </message>
    <message>
        <source>type some text the messages contain</source>
        <translation>请输入消息中包含的文本</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>%1 found, %2 of %3 read</source>
        <translation>找到 %1 个，已读取 %2 / %3</translation>
    </message>
    <message>
        <source>search stopped: %1</source>
        <translation>搜索已停止：%1</translation>
    </message>
    <message>
        <source>stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <source>the first %1 matches (refine the text for the others)</source>
        <translation>前 %1 个匹配（细化文本以查看其余匹配）</translation>
    </message>
    <message>
        <source>no message contains this text</source>
        <translation>没有消息包含此文本</translation>
    </message>
    <message>
        <source>%1 found</source>
        <translation>找到 %1 个</translation>
    </message>
    <message>
        <source>Search the text of every task of this tab, in steps</source>
        <translation>分步搜索此标签页中每个任务的文本</translation>
    </message>
    <message>
        <source>in payloads</source>
        <translation>在负载中</translation>
    </message>
    <message>
        <source>in last errors</source>
        <translation>在最近错误中</translation>
    </message>
    <message>
        <source>Act on all matches…</source>
        <translation>对全部匹配项操作…</translation>
    </message>
    <message>
        <source>Cancel, reschedule, requeue or delete every task the search matches, not only those listed</source>
        <translation>取消、改期、重新入队或删除搜索匹配的每个任务，而不仅是列出的任务</translation>
    </message>
    <message>
        <source>Read-only session: no bulk actions</source>
        <translation>只读会话：不能批量操作</translation>
    </message>
    <message>
        <source>type some text the tasks contain</source>
        <translation>请输入任务中包含的文本</translation>
    </message>
    <message>
        <source>no task of this tab contains this text</source>
        <translation>此标签页中没有任务包含此文本</translation>
    </message>
    <message>
        <source>%1; %2 no longer match</source>
        <translation>%1；%2 个已不再匹配</translation>
    </message>
    <message>
        <source>in workers</source>
        <translation>在工作进程名中</translation>
    </message>
</context>
<context>
    <name>delayq::ui::GroupsTab</name>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Due waiting</source>
        <translation>到期等待</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>受限于</translation>
    </message>
    <message>
        <source>A plain sorted set has no groups: only delayq queues in fair order do.</source>
        <translation>普通有序集合没有分组：只有公平顺序的 delayq 队列才有。</translation>
    </message>
    <message>
        <source>Open a queue to see its busiest groups.</source>
        <translation>打开一个队列以查看其最繁忙的分组。</translation>
    </message>
    <message>
        <source>This queue hands out its tasks in due order: groups take no turns (Queue → Queue settings…, Order: Fair turns them on).</source>
        <translation>该队列按到期时间分发任务：各分组不轮流（队列 → 队列设置…，顺序选“公平”即可开启）。</translation>
    </message>
    <message>
        <source>(no group)</source>
        <translation>（无分组）</translation>
    </message>
    <message>
        <source>its group cap</source>
        <translation>其分组上限</translation>
    </message>
    <message>
        <source>its group rate</source>
        <translation>其分组速率</translation>
    </message>
    <message>
        <source>Fair order</source>
        <translation>公平顺序</translation>
    </message>
    <message>
        <source>Fair order, group cap %1</source>
        <translation>公平顺序，分组上限 %1</translation>
    </message>
    <message>
        <source>%1 tracked in the fullest of %2 shards</source>
        <translation>%2 个分片中最多的一个跟踪 %1 个</translation>
    </message>
    <message>
        <source>%1 tracked</source>
        <translation>共跟踪 %1 个</translation>
    </message>
    <message>
        <source>%1: %2 groups in turn with due tasks, %3 at their cap, %4 waiting for their rate (%5).</source>
        <translation>%1：%2 个分组有到期任务正在轮流，%3 个已达上限，%4 个在等待其速率（%5）。</translation>
    </message>
    <message>
        <source>No group has due or running tasks.</source>
        <translation>没有分组有到期或运行中的任务。</translation>
    </message>
    <message>
        <source>The busiest %1 of every group</source>
        <translation>所有分组中最繁忙的 %1 个</translation>
    </message>
    <message>
        <source>The busiest %1 of the %2 groups looked at</source>
        <translation>所查看的 %2 个分组中最繁忙的 %1 个</translation>
    </message>
</context>
<context>
    <name>delayq::ui::IoWorker</name>
    <message>
        <source>not connected: choose a server first</source>
        <translation>未连接：请先选择服务器</translation>
    </message>
    <message>
        <source>not connected to %1 (reconnecting)</source>
        <translation>未连接到 %1（正在重连）</translation>
    </message>
    <message>
        <source>the server refused a write for this user: %1</source>
        <translation>服务器拒绝了该用户的写入：%1</translation>
    </message>
    <message>
        <source>stopped: the app connected to another server meanwhile</source>
        <translation>已停止：应用在此期间连接到了另一台服务器</translation>
    </message>
    <message>
        <source>this connection is read-only</source>
        <translation>此连接为只读</translation>
    </message>
    <message>
        <source>the server refuses writes for this user</source>
        <translation>服务器拒绝该用户写入</translation>
    </message>
    <message>
        <source>the server refuses writes for this user (%1)</source>
        <translation>服务器拒绝该用户写入（%1）</translation>
    </message>
    <message>
        <source>read the scores of %1</source>
        <translation>读取 %1 的分数</translation>
    </message>
    <message>
        <source>not connected: %1</source>
        <translation>未连接：%1</translation>
    </message>
    <message>
        <source>%1 asks for a password and none was given (%2)</source>
        <translation>%1 要求密码，但未提供（%2）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>delayq::ui::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Applies at the next start</source>
        <translation>下次启动时生效</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>delayq::ui::LayoutNotice</name>
    <message>
        <source>This queue needs an upgrade before its tasks can be shown: %1</source>
        <translation>此队列需要先升级才能显示其任务：%1</translation>
    </message>
</context>
<context>
    <name>delayq::ui::MainWindow</name>
    <message>
        <source>The zone of the times shown (View → UTC switches)</source>
        <translation>所显示时间的时区（视图 → UTC 可切换）</translation>
    </message>
    <message>
        <source>UTC</source>
        <translation>UTC</translation>
    </message>
    <message>
        <source>Show times in UTC instead of local time</source>
        <translation>以 UTC 而非本地时间显示时间</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Server…</source>
        <translation>服务器(&amp;S)…</translation>
    </message>
    <message>
        <source>The language changes at the next start.</source>
        <translation>语言将在下次启动时更改。</translation>
    </message>
    <message>
        <source>this connection is read-only</source>
        <translation>此连接为只读</translation>
    </message>
    <message>
        <source>Failover: %1 is now served by master %2</source>
        <translation>故障转移：%1 现在由主节点 %2 提供服务</translation>
    </message>
    <message>
        <source>Times: %1</source>
        <translation>时区：%1</translation>
    </message>
    <message>
        <source>&amp;About delayq-admin</source>
        <translation>关于 delayq-admin(&amp;A)</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Every queue of the server at a glance</source>
        <translation>一览服务器上的所有队列</translation>
    </message>
    <message>
        <source>(paused)</source>
        <translation>（已暂停）</translation>
    </message>
    <message>
        <source>(not connected)</source>
        <translation>（未连接）</translation>
    </message>
    <message>
        <source>&amp;Workers…</source>
        <translation>工作进程(&amp;W)…</translation>
    </message>
    <message>
        <source>Every worker of every queue, from their heartbeats</source>
        <translation>根据心跳列出所有队列的全部工作进程</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>That alert is about %1: connect to it (File → Connect…) to see it</source>
        <translation>该告警来自 %1：请连接到它（文件 → 连接…）后查看</translation>
    </message>
    <message>
        <source>Still watching from the tray: alerts go on. Quit from the tray&apos;s menu.</source>
        <translation>仍在托盘中监视：告警继续。可从托盘菜单退出。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::MatchActions</name>
    <message>
        <source>dead tasks</source>
        <translation>死信任务</translation>
    </message>
    <message>
        <source>active tasks</source>
        <translation>执行中的任务</translation>
    </message>
    <message>
        <source>pending tasks</source>
        <translation>待处理任务</translation>
    </message>
    <message>
        <source>%1 whose last error contains &quot;%2&quot;</source>
        <translation>最近错误包含“%2”的%1</translation>
    </message>
    <message>
        <source>%1 whose payload contains &quot;%2&quot;</source>
        <translation>负载包含“%2”的%1</translation>
    </message>
    <message>
        <source>%1, before %2</source>
        <translation>%1，%2 之前</translation>
    </message>
    <message>
        <source>%1, from %2 on</source>
        <translation>%1，自 %2 起</translation>
    </message>
    <message>
        <source>A bulk action is already running: wait for it or cancel it</source>
        <translation>已有批量操作在运行：请等待其完成或取消它</translation>
    </message>
    <message>
        <source>Counting the matching tasks…</source>
        <translation>正在统计匹配的任务…</translation>
    </message>
    <message>
        <source>Tasks that match</source>
        <translation>匹配的任务</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Counting the matching tasks: %1 found, %2 of %3 read</source>
        <translation>正在统计匹配的任务：找到 %1 个，已读取 %2 / %3</translation>
    </message>
    <message>
        <source>Counting stopped: nothing was changed</source>
        <translation>统计已停止：未做任何更改</translation>
    </message>
    <message>
        <source>Could not count the matching tasks: %1</source>
        <translation>无法统计匹配的任务：%1</translation>
    </message>
    <message>
        <source>No task matches: nothing to do</source>
        <translation>没有匹配的任务：无需操作</translation>
    </message>
    <message>
        <source>Cancel matching tasks</source>
        <translation>取消匹配的任务</translation>
    </message>
    <message>
        <source>Cancel %1</source>
        <translation>取消 %1</translation>
    </message>
    <message>
        <source>Run matching tasks now</source>
        <translation>立即运行匹配的任务</translation>
    </message>
    <message>
        <source>Reschedule matching tasks</source>
        <translation>改期匹配的任务</translation>
    </message>
    <message>
        <source>Run %1 now</source>
        <translation>立即运行 %1</translation>
    </message>
    <message>
        <source>Reschedule %1</source>
        <translation>改期 %1</translation>
    </message>
    <message>
        <source>Requeue matching tasks</source>
        <translation>重新入队匹配的任务</translation>
    </message>
    <message>
        <source>Requeue %1</source>
        <translation>重新入队 %1</translation>
    </message>
    <message>
        <source>Delete matching tasks</source>
        <translation>删除匹配的任务</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>%1 of queue %2 match: %3.

The action applies to these %4 tasks only; tasks that arrive meanwhile are left alone.</source>
        <translation>队列 %2 中有 %1 匹配：%3。

操作只作用于这 %4 个任务；期间新到的任务不受影响。</translation>
    </message>
    <message>
        <source>New due time: %1</source>
        <translation>新的到期时间：%1</translation>
    </message>
    <message>
        <source>The count stopped at %1: more tasks may match. Run it again for the others.</source>
        <translation>统计在 %1 处停止：可能还有更多任务匹配。请再次运行以处理其余任务。</translation>
    </message>
    <message>
        <source>Do nothing</source>
        <translation>不操作</translation>
    </message>
    <message>
        <source>Nothing was changed</source>
        <translation>未做任何更改</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>正在处理…</translation>
    </message>
    <message>
        <source>Cancelled: %1</source>
        <translation>已取消：%1</translation>
    </message>
    <message>
        <source>Stopped by an error (%1): %2</source>
        <translation>因错误而停止（%1）：%2</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>%1 %2 of %3 %4 tasks in %5…</source>
        <comment>Requeued 7 of 15 dead tasks in orders…</comment>
        <translation>%1：%5 的 %3 个%4任务中已处理 %2 个…</translation>
    </message>
    <message>
        <source>%1 %2 of %3 %4 tasks in %5; already gone: %6; running: %7; in another set: %8</source>
        <translation>%1：%5 的 %3 个%4任务中已处理 %2 个；已不存在：%6；正在执行：%7；在其他集合中：%8</translation>
    </message>
    <message>
        <source>%1 held by a worker named like &quot;%2&quot;</source>
        <translation>由名称包含“%2”的工作进程持有的%1</translation>
    </message>
</context>
<context>
    <name>delayq::ui::MatchClient</name>
    <message>
        <source>check the matches</source>
        <translation>检查匹配项</translation>
    </message>
</context>
<context>
    <name>delayq::ui::MatchFilterDialog</name>
    <message>
        <source>Act on matching tasks</source>
        <translation>对匹配的任务操作</translation>
    </message>
    <message>
        <source>Dead tasks</source>
        <translation>死信任务</translation>
    </message>
    <message>
        <source>Active tasks</source>
        <translation>执行中的任务</translation>
    </message>
    <message>
        <source>Pending tasks</source>
        <translation>待处理任务</translation>
    </message>
    <message>
        <source>Any text (empty: every task of the set)</source>
        <translation>任意文本（留空：该集合的所有任务）</translation>
    </message>
    <message>
        <source>in the payload</source>
        <translation>在负载中</translation>
    </message>
    <message>
        <source>in the last error</source>
        <translation>在最近错误中</translation>
    </message>
    <message>
        <source>at any time</source>
        <translation>任何时间</translation>
    </message>
    <message>
        <source>before</source>
        <translation>早于</translation>
    </message>
    <message>
        <source>after</source>
        <translation>晚于</translation>
    </message>
    <message>
        <source>2026-12-01 09:30, now, +10m, -1h</source>
        <translation>2026-12-01 09:30、now、+10m、-1h</translation>
    </message>
    <message>
        <source>New due time: 2026-12-01 09:30, +10m</source>
        <translation>新的到期时间：2026-12-01 09:30、+10m</translation>
    </message>
    <message>
        <source>Count matches…</source>
        <translation>统计匹配项…</translation>
    </message>
    <message>
        <source>Tasks:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>Containing:</source>
        <translation>包含：</translation>
    </message>
    <message>
        <source>Died:</source>
        <translation>死亡时间：</translation>
    </message>
    <message>
        <source>Due:</source>
        <translation>到期时间：</translation>
    </message>
    <message>
        <source>Action:</source>
        <translation>操作：</translation>
    </message>
    <message>
        <source>Reschedule to:</source>
        <translation>改期到：</translation>
    </message>
    <message>
        <source>no bulk action applies to active tasks</source>
        <translation>执行中的任务不能批量操作</translation>
    </message>
    <message>
        <source>the time: %1</source>
        <translation>时间：%1</translation>
    </message>
    <message>
        <source>the new due time: %1</source>
        <translation>新的到期时间：%1</translation>
    </message>
    <message>
        <source>Requeue the matching tasks</source>
        <translation>将匹配的任务重新入队</translation>
    </message>
    <message>
        <source>Delete the matching tasks</source>
        <translation>删除匹配的任务</translation>
    </message>
    <message>
        <source>Cancel the matching tasks</source>
        <translation>取消匹配的任务</translation>
    </message>
    <message>
        <source>Reschedule the matching tasks</source>
        <translation>为匹配的任务改期</translation>
    </message>
    <message>
        <source>Run the matching tasks now</source>
        <translation>立即执行匹配的任务</translation>
    </message>
    <message>
        <source>in the worker&apos;s name</source>
        <translation>在工作进程名中</translation>
    </message>
</context>
<context>
    <name>delayq::ui::OverviewClient</name>
    <message>
        <source>read the overview</source>
        <translation>读取概览</translation>
    </message>
    <message>
        <source>describe the server</source>
        <translation>读取服务器信息</translation>
    </message>
    <message>
        <source>load the timeline</source>
        <translation>加载时间线</translation>
    </message>
    <message>
        <source>load the throughput</source>
        <translation>加载吞吐量</translation>
    </message>
    <message>
        <source>list the workers</source>
        <translation>列出工作进程</translation>
    </message>
    <message>
        <source>forecast the lateness</source>
        <translation>预测延迟</translation>
    </message>
</context>
<context>
    <name>delayq::ui::OverviewModel</name>
    <message>
        <source>Above its thresholds:
%1</source>
        <translation>超过阈值：
%1</translation>
    </message>
    <message>
        <source>Acked (green) and failed (red) per minute over the last hour</source>
        <translation>近一小时每分钟的确认数（绿）与失败数（红）</translation>
    </message>
    <message>
        <source>A plain sorted set: only pending, due now and oldest overdue apply</source>
        <translation>普通有序集合：只适用待处理、现已到期和最久逾期</translation>
    </message>
    <message>
        <source>plain key (%1)</source>
        <translation>普通键（%1）</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>How late the most overdue pending task is: the consumers are behind</source>
        <translation>逾期最久的待处理任务晚了多久：消费者跟不上了</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>Due now</source>
        <translation>现已到期</translation>
    </message>
    <message>
        <source>Oldest overdue</source>
        <translation>最久逾期</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>近一小时</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <comment>last minute / last hour</comment>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Tasks acked in the last minute / in the last hour</source>
        <translation>近一分钟 / 近一小时确认的任务</translation>
    </message>
    <message>
        <source>Failed attempts in the last minute / in the last hour: tasks that died plus tasks retried after a failure</source>
        <translation>近一分钟 / 近一小时的失败次数：成为死信的任务加上失败后重试的任务</translation>
    </message>
    <message>
        <source>Acked 1m / 1h</source>
        <translation>确认 1分钟 / 1小时</translation>
    </message>
    <message>
        <source>Failed 1m / 1h</source>
        <translation>失败 1分钟 / 1小时</translation>
    </message>
    <message>
        <source>Above its threshold: %1</source>
        <translation>超过阈值：%1</translation>
    </message>
    <message>
        <source>%1, stalled</source>
        <translation>%1，已停滞</translation>
    </message>
    <message>
        <source>Workers whose heartbeat is live (Workers… lists them); flagged when tasks are due and none is, or when one holds tasks and acks none</source>
        <translation>心跳仍有效的工作进程（“工作进程…”列出它们）；有任务到期却没有在线工作进程，或有工作进程持有任务却不确认时标出</translation>
    </message>
    <message>
        <source>Consumers</source>
        <translation>消费者</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Not live: figures as of %1</source>
        <translation>非实时：数据截至 %1</translation>
    </message>
    <message>
        <source>Held back by its rate limit (%1): the due tasks wait for their turn. Its tasks are being claimed: this is not a queue without a consumer.</source>
        <translation>被速率限制（%1）压住：到期的任务在排队等候。它的任务正在被领取：这不是没有消费者的队列。</translation>
    </message>
    <message>
        <source>Held back by its cap (%1 at once): the due tasks wait for a running one to finish. This is not a queue without a consumer.</source>
        <translation>被并发上限（同时 %1 个）压住：到期的任务在等运行中的任务结束。这不是没有消费者的队列。</translation>
    </message>
    <message>
        <source>limited: %1, %2 waiting</source>
        <translation>限流：%1，%2 个等候</translation>
    </message>
    <message>
        <source>limited: %1 active of %2, %3 waiting</source>
        <translation>限流：上限 %2 个，运行中 %1 个，%3 个等候</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <comment>forecast peak lateness at a time</comment>
        <translation>%2 时 %1</translation>
    </message>
    <message>
        <source>How late the forecast says tasks will run at worst in the next 6 hours, and when: from the due times and the capacity measured from recent acks (read every 30 seconds)</source>
        <translation>预测未来 6 小时内任务最多会延迟多久、在何时：依据到期时间和由最近确认数测得的处理能力（每 30 秒读取一次）</translation>
    </message>
    <message>
        <source>Forecast peak</source>
        <translation>预测峰值</translation>
    </message>
    <message>
        <source>Expected to run %1 late at worst, above its %2 threshold</source>
        <translation>预计最多延迟 %1，超过 %2 阈值</translation>
    </message>
    <message>
        <source>No forecast: no capacity known (no acks in the last 15 minutes, no rate limit)</source>
        <translation>无预测：处理能力未知（最近 15 分钟没有确认，也没有速率限制）</translation>
    </message>
    <message>
        <source>No dead bound: dead tasks stay until they are deleted or requeued (config dead_max, dead_max_bytes)</source>
        <translation>没有死任务上限：死任务会一直保留，直到被删除或重新入队（配置 dead_max、dead_max_bytes）</translation>
    </message>
    <message>
        <source>%1 tasks</source>
        <translation>%1 个任务</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 和 %2</translation>
    </message>
    <message>
        <source>Dead bound: at most %1; now %2 tasks, %3 (%4% full). Past it the oldest dead tasks are dropped, counted and audited.</source>
        <translation>死任务上限：最多 %1；当前 %2 个任务，%3（已用 %4%）。超过上限时，最旧的死任务被丢弃、计数并记入审计。</translation>
    </message>
    <message>
        <source>Near its dead bound: the oldest dead tasks are dropped next.</source>
        <translation>接近死任务上限：接下来会丢弃最旧的死任务。</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <comment>dead bytes / dead_max_bytes</comment>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <comment>dead tasks / dead_max</comment>
        <translation>%1 / %2</translation>
    </message>
    <message numerus="yes">
        <source>Fair order: %n group(s) in turn with due tasks</source>
        <translation>
            <numerusform>公平顺序：%n 个分组有到期任务正在轮流</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n held by their group cap or rate</source>
        <translation>
            <numerusform>%n 个被分组上限或速率挡住</numerusform>
        </translation>
    </message>
    <message>
        <source>The busiest (Groups tab: all of them):</source>
        <translation>最繁忙的分组（全部见“分组”页）：</translation>
    </message>
    <message>
        <source>(no group)</source>
        <translation>（无分组）</translation>
    </message>
    <message>
        <source>%1 %2 due, %3 running</source>
        <translation>%1：%2 个到期，%3 个运行中</translation>
    </message>
    <message>
        <source>%1 (at its group cap)</source>
        <translation>%1（已达分组上限）</translation>
    </message>
    <message>
        <source>%1 (waiting for its group rate)</source>
        <translation>%1（在等待分组速率）</translation>
    </message>
    <message>
        <source>Queues in fair order: the busiest groups, with their due and running tasks (as delayq stats and the Groups tab show them)</source>
        <translation>公平顺序的队列：最繁忙的分组及其到期和运行中的任务（与 delayq stats 和“分组”页所示相同）</translation>
    </message>
    <message>
        <source>Busy groups</source>
        <translation>繁忙分组</translation>
    </message>
    <message>
        <source>%1 %2 due</source>
        <comment>a group and its due tasks, in a narrow Busy groups cell</comment>
        <translation>%1：%2 个到期</translation>
    </message>
    <message>
        <source>%1 %2 running</source>
        <comment>a group and its running tasks, in a narrow Busy groups cell</comment>
        <translation>%1：%2 个运行中</translation>
    </message>
    <message numerus="yes">
        <source>+%n more</source>
        <comment>busy groups left out of a narrow cell</comment>
        <translation>
            <numerusform>另 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>delayq::ui::OverviewPage</name>
    <message>
        <source>Filter queues by name</source>
        <translation>按名称筛选队列</translation>
    </message>
    <message>
        <source>%1 registered names left out: not a queue, or keys of another type</source>
        <translation>略过了 %1 个已登记的名称：不是队列，或键的类型不对</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Thresholds…</source>
        <translation>阈值…</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Coloured rows are above their thresholds (for all queues: %1; queues may have their own); the figure above its limit is in bold on a stronger colour. Failed = died + retried. Hover a cell for the reason.</source>
        <translation>着色的行超过了阈值（所有队列：%1；队列可有自己的阈值）；超限的数值以粗体和更深的颜色显示。失败 = 转入死信 + 重试。将鼠标悬停在单元格上可查看原因。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>and %n more queue(s) whose consumers need a look</source>
        <translation>
            <numerusform>另有 %n 个队列的消费者需要关注</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上的 %1</translation>
    </message>
    <message>
        <source>Not live, as of %1:
%2</source>
        <translation>非实时，截至 %1：
%2</translation>
    </message>
</context>
<context>
    <name>delayq::ui::PlainKeyBar</name>
    <message>
        <source>scores are</source>
        <translation>分数单位</translation>
    </message>
    <message>
        <source>milliseconds since 1970</source>
        <translation>自 1970 年起的毫秒数</translation>
    </message>
    <message>
        <source>seconds since 1970</source>
        <translation>自 1970 年起的秒数</translation>
    </message>
    <message>
        <source>How the key&apos;s scores are read as due times; remembered for this key</source>
        <translation>如何将该键的分数解读为到期时间；会为此键记住</translation>
    </message>
    <message>
        <source>At most once: a consumer that dies right after taking a message loses it. For at least once, move it to a delayq queue: delayq migrate.</source>
        <translation>至多一次：取走消息后立即崩溃的消费者会丢失该消息。若需至少一次，请迁移到 delayq 队列：delayq migrate。</translation>
    </message>
    <message>
        <source>Plain sorted set</source>
        <translation>普通有序集合</translation>
    </message>
</context>
<context>
    <name>delayq::ui::PurgeDialog</name>
    <message>
        <source>Purge queue</source>
        <translation>清空队列</translation>
    </message>
    <message>
        <source>Purge queue %1?

This deletes every task of the queue: %2 pending, %3 active (their workers lose them) and %4 dead, %5 in all, and any pushed while the purge runs. The queue&apos;s config and stats are kept. This cannot be undone.</source>
        <translation>清空队列 %1？

这将删除该队列的所有任务：%2 个待处理、%3 个执行中（其工作进程将失去它们）和 %4 个死信，共 %5 个，以及清空期间推送的任务。队列的配置和统计会保留。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Type the queue&apos;s name to confirm:</source>
        <translation>输入队列名称以确认：</translation>
    </message>
    <message>
        <source>Purge</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Export first…</source>
        <translation>先导出…</translation>
    </message>
</context>
<context>
    <name>delayq::ui::PushDialog</name>
    <message>
        <source>Push tasks</source>
        <translation>推送任务</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>队列(&amp;Q)</translation>
    </message>
    <message>
        <source>Must be valid JSON</source>
        <translation>必须是有效的 JSON</translation>
    </message>
    <message>
        <source>&amp;Payload</source>
        <translation>负载(&amp;P)</translation>
    </message>
    <message>
        <source>In</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>30s, 5m, 1h30m; 0 for now</source>
        <translation>30s、5m、1h30m；0 表示立即</translation>
    </message>
    <message>
        <source>At</source>
        <translation>定时</translation>
    </message>
    <message>
        <source>2026-12-01 09:30 (local) or …Z for UTC</source>
        <translation>2026-12-01 09:30（本地时间），或以 …Z 结尾表示 UTC</translation>
    </message>
    <message>
        <source>&amp;Due</source>
        <translation>到期(&amp;D)</translation>
    </message>
    <message>
        <source>optional; generated when empty</source>
        <translation>可选；留空则自动生成</translation>
    </message>
    <message>
        <source>&amp;Id</source>
        <translation>&amp;ID</translation>
    </message>
    <message>
        <source>queue default</source>
        <translation>队列默认值</translation>
    </message>
    <message>
        <source>&amp;Max attempts</source>
        <translation>最大尝试次数(&amp;M)</translation>
    </message>
    <message>
        <source>queue default; e.g. 5s,20s,30s or exp:1s:5m</source>
        <translation>队列默认值；例如 5s,20s,30s 或 exp:1s:5m</translation>
    </message>
    <message>
        <source>&amp;Backoff</source>
        <translation>退避(&amp;B)</translation>
    </message>
    <message>
        <source>Push this many copies; a given id gets -1, -2, … appended</source>
        <translation>推送的副本数；指定的 ID 会依次追加 -1、-2、…</translation>
    </message>
    <message>
        <source>&amp;Count</source>
        <translation>数量(&amp;C)</translation>
    </message>
    <message>
        <source>Push</source>
        <translation>推送</translation>
    </message>
    <message>
        <source>the queue name is empty</source>
        <translation>队列名称为空</translation>
    </message>
    <message>
        <source>type the message: it is the member of the sorted set</source>
        <translation>请输入消息：它就是有序集合的成员</translation>
    </message>
    <message>
        <source>not valid JSON: %1 at line %2, column %3 (untick &quot;Must be valid JSON&quot; to send plain text)</source>
        <translation>不是有效的 JSON：%1，位于第 %2 行第 %3 列（取消勾选“必须是有效的 JSON”即可发送纯文本）</translation>
    </message>
    <message>
        <source>type a date and time, e.g. 2026-12-01 09:30</source>
        <translation>请输入日期和时间，例如 2026-12-01 09:30</translation>
    </message>
    <message>
        <source>Due %1</source>
        <translation>到期：%1</translation>
    </message>
    <message>
        <source>Type a delay to see the due time.</source>
        <translation>输入延迟以查看到期时间。</translation>
    </message>
    <message>
        <source>Type a time to see it here.</source>
        <translation>输入时间后将在此显示。</translation>
    </message>
    <message>
        <source>Push a message</source>
        <translation>推送消息</translation>
    </message>
    <message>
        <source>&amp;Key</source>
        <translation>键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Message</source>
        <translation>消息(&amp;M)</translation>
    </message>
    <message>
        <source>{&quot;order&quot;: 42, &quot;action&quot;: &quot;send-reminder&quot;}</source>
        <translation>{&quot;订单&quot;: 42, &quot;操作&quot;: &quot;发送提醒&quot;}</translation>
    </message>
    <message>
        <source>queue default; e.g. 1h: the id stays refused that long after the task ends</source>
        <translation>队列默认值；例如 1h：任务结束后该 ID 在这段时间内仍被拒绝</translation>
    </message>
    <message>
        <source>D&amp;edup window</source>
        <translation>去重窗口(&amp;E)</translation>
    </message>
    <message>
        <source>max wait, e.g. 30m; off when empty</source>
        <translation>最长等待，例如 30m；留空为关闭</translation>
    </message>
    <message>
        <source>With an id: a pending task with that id moves to this push&apos;s due time instead of being refused, never past its first push + the max wait; a running one gets one follow-up</source>
        <translation>需指定 ID：该 ID 的待处理任务不会被拒绝，而是移到本次推送的到期时间，但不晚于首次推送加最长等待；正在执行的任务则得到一个后续任务</translation>
    </message>
    <message>
        <source>Move the payload too</source>
        <translation>同时替换负载</translation>
    </message>
    <message>
        <source>Debou&amp;nce</source>
        <translation>防抖(&amp;N)</translation>
    </message>
    <message>
        <source>the dedup window must be at least 1s</source>
        <translation>去重窗口至少为 1s</translation>
    </message>
    <message>
        <source>the debounce&apos;s max wait must be above 0, e.g. 30m</source>
        <translation>防抖的最长等待必须大于 0，例如 30m</translation>
    </message>
    <message>
        <source>debounce needs an id: it moves the pending task that has it</source>
        <translation>防抖需要 ID：它移动具有该 ID 的待处理任务</translation>
    </message>
    <message>
        <source>debounce moves one task: push 1 copy, not %1</source>
        <translation>防抖只移动一个任务：请推送 1 个副本，而不是 %1 个</translation>
    </message>
</context>
<context>
    <name>delayq::ui::QueueActions</name>
    <message>
        <source>Requeue all dead…</source>
        <translation>全部死信重新入队…</translation>
    </message>
    <message>
        <source>Put every dead task of the queue back in pending, due now</source>
        <translation>将队列中的所有死信任务放回待处理，立即到期</translation>
    </message>
    <message>
        <source>Delete all dead…</source>
        <translation>删除全部死信…</translation>
    </message>
    <message>
        <source>Delete every dead task of the queue for good</source>
        <translation>永久删除队列中的所有死信任务</translation>
    </message>
    <message>
        <source>Purge queue…</source>
        <translation>清空队列…</translation>
    </message>
    <message>
        <source>Delete every task of the queue (pending, active, dead); config and stats stay</source>
        <translation>删除队列中的所有任务（待处理、执行中、死信）；配置和统计保留</translation>
    </message>
    <message>
        <source>Read-only: %1</source>
        <translation>只读：%1</translation>
    </message>
    <message>
        <source>Not for a plain sorted set: it has no dead tasks, and Cancel removes members</source>
        <translation>不适用于普通有序集合：它没有死信任务，“取消”会移除成员</translation>
    </message>
    <message>
        <source>A queue-wide action is already under way</source>
        <translation>已有一个全队列操作正在进行</translation>
    </message>
    <message>
        <source>Could not read the counts of queue %1: %2</source>
        <translation>无法读取队列 %1 的计数：%2</translation>
    </message>
    <message>
        <source>Queue %1 has no tasks: nothing to purge.</source>
        <translation>队列 %1 没有任务：无需清空。</translation>
    </message>
    <message>
        <source>Queue %1 has no dead tasks.</source>
        <translation>队列 %1 没有死信任务。</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Requeue all dead tasks</source>
        <translation>全部死信任务重新入队</translation>
    </message>
    <message>
        <source>Move all %1 of queue %2 back to pending, due now?

Each starts again with no attempts used. Tasks that die while this runs stay dead.</source>
        <translation>将队列 %2 中全部 %1 移回待处理并立即到期？

每个任务的尝试次数从零重新开始。执行期间新产生的死信任务仍保持死信。</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Requeue %1</source>
        <translation>重新入队 %1</translation>
    </message>
    <message>
        <source>Leave them dead</source>
        <translation>保持死信</translation>
    </message>
    <message>
        <source>Delete all dead tasks</source>
        <translation>删除全部死信任务</translation>
    </message>
    <message>
        <source>Delete all %1 of queue %2 for good?

This cannot be undone.</source>
        <translation>永久删除队列 %2 中全部 %1？

此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Purge queue</source>
        <translation>清空队列</translation>
    </message>
    <message>
        <source>Dead tasks</source>
        <translation>死信任务</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stopping after the current step…</source>
        <translation>将在当前步骤完成后停止…</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Requeued %1 of %2: they are pending again, due now.</source>
        <translation>已将 %2 的 %1 重新入队：它们重新处于待处理，立即到期。</translation>
    </message>
    <message>
        <source>Deleted %1 of %2 for good.</source>
        <translation>已永久删除 %2 的 %1。</translation>
    </message>
    <message>
        <source>Purged %1 from %2.</source>
        <translation>已从 %2 清空 %1。</translation>
    </message>
    <message>
        <source>Stopped by an error: %1 %2</source>
        <translation>因错误而停止：%1 %2</translation>
    </message>
    <message>
        <source>Cancelled: %1 The rest are still there.</source>
        <translation>已取消：%1 其余任务仍在。</translation>
    </message>
    <message>
        <source>%1 %2 arrived while it ran and stay: purge again for them.</source>
        <translation>%1 执行期间新到达的 %2 仍保留：如需删除请再次清空。</translation>
    </message>
    <message>
        <source>%1 %2 died while it ran and stay dead: run it again for them.</source>
        <translation>%1 执行期间新产生的 %2 仍为死信：如需处理请再次执行。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Requeueing the dead tasks of %1: %2…</source>
        <translation>正在将 %1 的死信任务重新入队：%2…</translation>
    </message>
    <message>
        <source>Deleting the dead tasks of %1: %2…</source>
        <translation>正在删除 %1 的死信任务：%2…</translation>
    </message>
    <message>
        <source>Purging %1: %2 tasks…</source>
        <translation>正在清空 %1：%2 个任务…</translation>
    </message>
    <message>
        <source>Open a queue, or select one in the Overview</source>
        <translation>请打开一个队列，或在概览中选中一个</translation>
    </message>
    <message>
        <source>Requeue all dead of %1…</source>
        <translation>将 %1 的全部死信重新入队…</translation>
    </message>
    <message>
        <source>Delete all dead of %1…</source>
        <translation>删除 %1 的全部死信…</translation>
    </message>
    <message>
        <source>Purge %1…</source>
        <translation>清空 %1…</translation>
    </message>
</context>
<context>
    <name>delayq::ui::QueueClient</name>
    <message>
        <source>list queues</source>
        <translation>列出队列</translation>
    </message>
    <message>
        <source>read the queue&apos;s settings</source>
        <translation>读取队列设置</translation>
    </message>
    <message>
        <source>change the queue&apos;s settings</source>
        <translation>修改队列设置</translation>
    </message>
    <message>
        <source>load the audit trail</source>
        <translation>加载审计记录</translation>
    </message>
    <message>
        <source>load the busiest groups</source>
        <translation>加载最繁忙的分组</translation>
    </message>
</context>
<context>
    <name>delayq::ui::QueueControl</name>
    <message>
        <source>Pause queue</source>
        <translation>暂停队列</translation>
    </message>
    <message>
        <source>Queue settings…</source>
        <translation>队列设置…</translation>
    </message>
    <message>
        <source>Queue thresholds…</source>
        <translation>队列阈值…</translation>
    </message>
    <message>
        <source>Thresholds for all queues…</source>
        <translation>所有队列的阈值…</translation>
    </message>
    <message>
        <source>Not in a read-only session: %1</source>
        <translation>只读会话中不可用：%1</translation>
    </message>
    <message>
        <source>%1 is paused: workers claim nothing from it</source>
        <translation>%1 已暂停：工作进程不会从中领取任务</translation>
    </message>
    <message>
        <source>%1 is running again</source>
        <translation>%1 已恢复运行</translation>
    </message>
    <message>
        <source>Settings of %1 saved</source>
        <translation>%1 的设置已保存</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>恢复 %1</translation>
    </message>
    <message>
        <source>Pause %1…</source>
        <translation>暂停 %1…</translation>
    </message>
    <message>
        <source>Settings of %1…</source>
        <translation>%1 的设置…</translation>
    </message>
    <message>
        <source>Thresholds of %1…</source>
        <translation>%1 的阈值…</translation>
    </message>
    <message>
        <source>Open a queue, or select one in the Overview</source>
        <translation>请打开一个队列，或在概览中选中一个</translation>
    </message>
    <message>
        <source>Let workers claim the tasks of %1 again</source>
        <translation>让工作进程重新领取 %1 的任务</translation>
    </message>
    <message>
        <source>Workers claim nothing from %1 until resumed</source>
        <translation>恢复之前，工作进程不会从 %1 领取任何任务</translation>
    </message>
    <message>
        <source>Pause queue %1</source>
        <translation>暂停队列 %1</translation>
    </message>
    <message>
        <source>Pause queue %1?</source>
        <translation>暂停队列 %1？</translation>
    </message>
    <message>
        <source>Pause queue %1 on %2?</source>
        <translation>暂停 %2 上的队列 %1？</translation>
    </message>
    <message>
        <source>Workers claim none of its tasks until it is resumed; the tasks keep their due times and wait.</source>
        <translation>恢复之前，工作进程不会领取它的任何任务；任务保留各自的到期时间并等待。</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
</context>
<context>
    <name>delayq::ui::QueueList</name>
    <message>
        <source>Filter, or Enter to open a queue by name</source>
        <translation>筛选，或按回车按名称打开队列</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>已到期</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Plain sorted sets</source>
        <translation>普通有序集合</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>type a queue name to open it</source>
        <translation>输入队列名称以打开</translation>
    </message>
    <message>
        <source>Plain sorted sets (%1)</source>
        <translation>普通有序集合（%1）</translation>
    </message>
    <message>
        <source>Plain sorted sets (first part of the keyspace)</source>
        <translation>普通有序集合（键空间的前一部分）</translation>
    </message>
    <message>
        <source>%1 is on %2</source>
        <translation>%1 位于 %2</translation>
    </message>
    <message>
        <source>%1 is paused: workers claim nothing from it</source>
        <translation>%1 已暂停：工作进程不会从中领取任务</translation>
    </message>
</context>
<context>
    <name>delayq::ui::QueueSettingsDialog</name>
    <message>
        <source>Settings of %1</source>
        <translation>%1 的设置</translation>
    </message>
    <message>
        <source>Max attempts</source>
        <translation>最大尝试次数</translation>
    </message>
    <message>
        <source>Backoff</source>
        <translation>退避</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <source>Max payload</source>
        <translation>最大载荷</translation>
    </message>
    <message>
        <source>1 to 1000000</source>
        <translation>1 到 1000000</translation>
    </message>
    <message>
        <source>a list like 5s,20s,30s or exp:1s:5m</source>
        <translation>列表如 5s,20s,30s，或 exp:1s:5m</translation>
    </message>
    <message>
        <source>how long a worker holds a task, e.g. 30s</source>
        <translation>工作进程持有任务的时长，例如 30s</translation>
    </message>
    <message>
        <source>bytes, 1 to 536870912</source>
        <translation>字节，1 到 536870912</translation>
    </message>
    <message>
        <source>Retries after</source>
        <translation>重试间隔</translation>
    </message>
    <message>
        <source>This session is read-only: the settings cannot be changed.</source>
        <translation>此会话为只读：无法更改设置。</translation>
    </message>
    <message>
        <source>#%1: %2</source>
        <translation>第 %1 次：%2</translation>
    </message>
    <message>
        <source>Copied into each task when it is pushed: tasks already queued keep the max attempts they were pushed with.</source>
        <translation>推送时复制到每个任务中：已在队列中的任务保留推送时的最大尝试次数。</translation>
    </message>
    <message>
        <source>Read each time a task fails: a new backoff applies to tasks already queued too, except those pushed with a backoff of their own.</source>
        <translation>每次任务失败时读取：新的退避也适用于已在队列中的任务，推送时自带退避的任务除外。</translation>
    </message>
    <message>
        <source>none: a task that fails once is dead</source>
        <translation>无：任务失败一次即成为死信</translation>
    </message>
    <message>
        <source>… #%1: %2</source>
        <translation>… 第 %1 次：%2</translation>
    </message>
    <message>
        <source>Task history</source>
        <translation>任务历史</translation>
    </message>
    <message>
        <source>events kept per task, 0 to 100 (0 = off)</source>
        <translation>每个任务保留的事件数，0 到 100（0 = 关闭）</translation>
    </message>
    <message>
        <source>Each push, claim, failure, reschedule and ack of a task is recorded, shown under History. It costs Redis about twice the CPU of a claim and ack (delayq bench), so it is off by default; 0 deletes every history of the queue.</source>
        <translation>记录任务的每次推送、领取、失败、改期和确认，显示在“历史”中。它使 Redis 的领取和确认 CPU 开销约翻一倍（见 delayq bench），因此默认关闭；设为 0 会删除该队列的全部历史。</translation>
    </message>
    <message>
        <source>Rate limit</source>
        <translation>速率限制</translation>
    </message>
    <message>
        <source>Burst</source>
        <translation>突发量</translation>
    </message>
    <message>
        <source>Cap</source>
        <translation>并发上限</translation>
    </message>
    <message>
        <source>tasks started per interval, e.g. 50/s, 3000/1m; off</source>
        <translation>每个时间段启动的任务数，例如 50/s、3000/1m；留空为不限</translation>
    </message>
    <message>
        <source>tasks started at once after a quiet spell; off = the rate&apos;s</source>
        <translation>空闲一阵后可同时启动的任务数；留空为速率的任务数</translation>
    </message>
    <message>
        <source>tasks active at once across every worker; off</source>
        <translation>所有工作进程合计同时运行的任务数；留空为不限</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>限制</translation>
    </message>
    <message>
        <source>no limit: tasks start as fast as the workers claim them</source>
        <translation>不限：工作进程领取多快，任务就启动多快</translation>
    </message>
    <message>
        <source>per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <source>per minute</source>
        <translation>每分钟</translation>
    </message>
    <message>
        <source>per hour</source>
        <translation>每小时</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>每 %1</translation>
    </message>
    <message>
        <source>at most %1 tasks start %2, %3 at once after a quiet spell</source>
        <translation>%2最多启动 %1 个任务，空闲一阵后可一次启动 %3 个</translation>
    </message>
    <message>
        <source>at most %1 run at once across every worker</source>
        <translation>所有工作进程合计最多同时运行 %1 个</translation>
    </message>
    <message>
        <source>at most %1 tasks start %2, %3 at once after a quiet spell; at most %4 run at once across every worker</source>
        <translation>%2最多启动 %1 个任务，空闲一阵后可一次启动 %3 个；所有工作进程合计最多同时运行 %4 个</translation>
    </message>
    <message>
        <source>Group cap</source>
        <translation>分组上限</translation>
    </message>
    <message>
        <source>tasks of one group active at once; empty = off</source>
        <translation>同一分组同时运行的任务数；留空 = 不限</translation>
    </message>
    <message>
        <source>Due time</source>
        <translation>到期时间</translation>
    </message>
    <message>
        <source>Fair: groups in turn, then priority</source>
        <translation>公平：各分组轮流，组内按优先级</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>顺序</translation>
    </message>
    <message>
        <source>; groups take turns; at most 1 task of a group runs at once</source>
        <translation>；各分组轮流；同一分组同时最多运行 1 个任务</translation>
    </message>
    <message>
        <source>; groups take turns; at most %1 tasks of a group run at once</source>
        <translation>；各分组轮流；同一分组同时最多运行 %1 个任务</translation>
    </message>
    <message>
        <source>; groups take turns</source>
        <translation>；各分组轮流</translation>
    </message>
    <message>
        <source>; the group cap holds only in fair order</source>
        <translation>；分组上限仅在公平顺序下生效</translation>
    </message>
    <message>
        <source>Dead tasks</source>
        <translation>死任务</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Max age</source>
        <translation>最长等待</translation>
    </message>
    <message>
        <source>dead tasks kept, the oldest dropped first; off</source>
        <translation>保留的死任务数，最旧的先丢弃；off 为不限</translation>
    </message>
    <message>
        <source>their bytes, e.g. 64MB; off</source>
        <translation>它们的字节数，例如 64MB；off 为不限</translation>
    </message>
    <message>
        <source>a task not started this long after its push never runs; off</source>
        <translation>推送后这么久仍未开始的任务永不运行；off 为不限</translation>
    </message>
    <message>
        <source>Past either bound the oldest dead tasks are dropped, counted and audited. Redis keeps a dead task in about 2.2 times its bytes (id, payload, last error): the defaults, 100000 tasks or 64 MB, hold at most about 140 MB.</source>
        <translation>超过任一上限时，最旧的死任务被丢弃、计数并记入审计。Redis 保存一个死任务约占其字节数（ID、负载、最后错误）的 2.2 倍：默认上限 100000 个任务或 64 MB，最多约占 140 MB。</translation>
    </message>
    <message>
        <source>then to dead</source>
        <translation>然后转入死信</translation>
    </message>
    <message>
        <source>then dropped (only counted)</source>
        <translation>然后丢弃（只计数）</translation>
    </message>
    <message>
        <source>Applies to tasks already queued too (counted from their push), except those pushed with an expiry of their own. A claim&apos;s check costs no measurable Redis CPU.</source>
        <translation>也适用于已在队列中的任务（从推送时算起），自带过期时间推送的任务除外。认领时的检查不产生可测的 Redis CPU 开销。</translation>
    </message>
    <message>
        <source>Dead tasks and expiry…</source>
        <translation>死任务与过期…</translation>
    </message>
    <message>
        <source>Group rate</source>
        <translation>分组速率</translation>
    </message>
    <message>
        <source>Dedup window</source>
        <translation>去重窗口</translation>
    </message>
    <message>
        <source>Ids kept</source>
        <translation>保留 ID 数</translation>
    </message>
    <message>
        <source>Recycle bin</source>
        <translation>回收站</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务数</translation>
    </message>
    <message>
        <source>each group&apos;s own rate in fair order, e.g. 5/s; empty = off</source>
        <translation>公平顺序下每个分组自己的速率，例如 5/s；留空为关闭</translation>
    </message>
    <message>
        <source>a finished task&apos;s id stays refused this long, e.g. 1h; off</source>
        <translation>已结束任务的 ID 在这段时间内仍被拒绝，例如 1h；off 为关闭</translation>
    </message>
    <message>
        <source>ids remembered at most, the soonest to end dropped first</source>
        <translation>最多记住的 ID 数，最早到期的先丢弃</translation>
    </message>
    <message>
        <source>removed tasks stay restorable this long, e.g. 24h; off</source>
        <translation>被移除的任务在这段时间内可恢复，例如 24h；off 为关闭</translation>
    </message>
    <message>
        <source>tasks kept at most, the oldest dropped first; off</source>
        <translation>最多保留的任务数，最旧的先丢弃；off 为不限</translation>
    </message>
    <message>
        <source>their bytes, e.g. 67108864; off</source>
        <translation>它们的字节数，例如 67108864；off 为不限</translation>
    </message>
    <message>
        <source>Dedup and recycle bin…</source>
        <translation>去重与回收站…</translation>
    </message>
    <message>
        <source>A task&apos;s id stays refused this long after it is acked or dies (recently_done); a push may ask for its own window. Each remembered id costs about 124 bytes of Redis memory (Ids kept bounds how many), and a push about 1.1 times the Redis CPU of one without a window.</source>
        <translation>任务确认完成或死亡后，其 ID 在这段时间内仍被拒绝（recently_done）；推送时也可指定自己的窗口。每个记住的 ID 约占 124 字节 Redis 内存（数量以“保留 ID 数”为上限），推送约耗费无窗口时 1.1 倍的 Redis CPU。</translation>
    </message>
    <message>
        <source>What cancel, purge and delete of dead tasks remove stays restorable this long (Undo, Queue → Recycle Bin…), the oldest dropped first past either bound. Redis keeps the removed tasks&apos; bytes, up to Bytes (64 MB by default); off or 0 in any of the three turns the bin off and deletes what it holds.</source>
        <translation>取消、清空和删除死任务所移除的任务在这段时间内可恢复（撤销，队列 → 回收站…），超过任一上限时最旧的先丢弃。Redis 保存被移除任务的字节，最多为“字节”所设（默认 64 MB）；三项中任一为 off 或 0 即关闭回收站并删除其中内容。</translation>
    </message>
    <message>
        <source>; each group starts at most %1 %2</source>
        <translation>；每个分组%2最多启动 %1 个任务</translation>
    </message>
    <message>
        <source>; the group cap and the group rate hold only in fair order</source>
        <translation>；分组上限和分组速率仅在公平顺序下生效</translation>
    </message>
    <message>
        <source>; the group rate holds only in fair order</source>
        <translation>；分组速率仅在公平顺序下生效</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
</context>
<context>
    <name>delayq::ui::RecycleBinActions</name>
    <message>
        <source>Recycle &amp;Bin…</source>
        <translation>回收站(&amp;B)…</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>What cancel, purge and delete of dead tasks removed and can still be restored, with the audit entry each came from</source>
        <translation>取消、清空和删除死信任务所移除且仍可恢复的内容，以及各自对应的审计条目</translation>
    </message>
    <message>
        <source>Restored 1 task to queue %1.</source>
        <translation>已将 1 个任务恢复到队列 %1。</translation>
    </message>
    <message>
        <source>Restored %1 tasks to queue %2.</source>
        <translation>已将 %1 个任务恢复到队列 %2。</translation>
    </message>
    <message>
        <source>Not restored, a task with the same id is in the queue again: %1.</source>
        <translation>未恢复，队列中已再次存在相同 ID 的任务：%1。</translation>
    </message>
    <message>
        <source>No longer in the recycle bin: %1.</source>
        <translation>已不在回收站中：%1。</translation>
    </message>
    <message>
        <source>Put the task just removed from queue %1 back as it was</source>
        <translation>将刚从队列 %1 移除的任务原样放回</translation>
    </message>
    <message>
        <source>Put the %1 tasks just removed from queue %2 back as they were</source>
        <translation>将刚从队列 %2 移除的 %1 个任务原样放回</translation>
    </message>
    <message>
        <source>Undo purge of %1 (1 task)</source>
        <translation>撤销清空 %1（1 个任务）</translation>
    </message>
    <message>
        <source>Undo purge of %1 (%2 tasks)</source>
        <translation>撤销清空 %1（%2 个任务）</translation>
    </message>
    <message>
        <source>Undo delete of 1 dead task</source>
        <translation>撤销删除 1 个死任务</translation>
    </message>
    <message>
        <source>Undo delete of %1 dead tasks</source>
        <translation>撤销删除 %1 个死任务</translation>
    </message>
    <message>
        <source>Undo cancel of 1 task</source>
        <translation>撤销取消 1 个任务</translation>
    </message>
    <message>
        <source>Undo cancel of %1 tasks</source>
        <translation>撤销取消 %1 个任务</translation>
    </message>
</context>
<context>
    <name>delayq::ui::RecycleBinDialog</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Purge</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Delete dead tasks</source>
        <translation>删除死信任务</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Restore &amp;all</source>
        <translation>全部恢复(&amp;A)</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>Recycle bin of %1</source>
        <translation>%1 的回收站</translation>
    </message>
    <message>
        <source>Tasks removed by cancel, purge and delete of dead tasks stay here for the queue&apos;s bin_keep (24 hours by default). A restored task comes back as it was: payload, attempts, history and due time.</source>
        <translation>被取消、清空或删除死信移除的任务会在此保留队列的 bin_keep 时长（默认 24 小时）。恢复的任务与原来完全一致：负载、尝试次数、历史和到期时间。</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>移除时间</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务数</translation>
    </message>
    <message>
        <source>Audit entry</source>
        <translation>审计条目</translation>
    </message>
    <message>
        <source>Bin id</source>
        <translation>回收站 ID</translation>
    </message>
    <message>
        <source>The recycle bin of %1 is empty.</source>
        <translation>%1 的回收站是空的。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::RefreshControl</name>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Live refresh interval</source>
        <translation>实时刷新间隔</translation>
    </message>
    <message>
        <source>Freeze figures</source>
        <translation>冻结数据</translation>
    </message>
    <message>
        <source>Stop the live refresh of this window: every figure stays as it is. The queue and its workers go on (Pause queue stops those).</source>
        <translation>停止此窗口的实时刷新：所有数据保持不变。队列及其工作进程照常运行（“暂停队列”才会停止它们）。</translation>
    </message>
    <message>
        <source> Refresh every </source>
        <translation> 刷新间隔 </translation>
    </message>
    <message>
        <source>Live updates off since %1: the figures shown change only on F5 or after an action of yours. Freeze figures again turns them back on.</source>
        <translation>自 %1 起已关闭实时更新：显示的数据只在按 F5 或你执行操作后才会变化。再次点击“冻结数据”即可恢复。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::RescheduleDialog</name>
    <message>
        <source>Reschedule</source>
        <translation>改期</translation>
    </message>
    <message>
        <source>Reschedule %1 to:</source>
        <translation>将 %1改期到：</translation>
    </message>
    <message>
        <source>In</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>30s, 5m, 1h30m (from the server&apos;s now)</source>
        <translation>30s、5m、1h30m（从服务器的当前时间算起）</translation>
    </message>
    <message>
        <source>At</source>
        <translation>定时</translation>
    </message>
    <message>
        <source>2026-12-01 09:30 (local) or …Z for UTC</source>
        <translation>2026-12-01 09:30（本地时间），或以 …Z 结尾表示 UTC</translation>
    </message>
    <message>
        <source>Now (run as soon as a worker is free)</source>
        <translation>立即（工作进程空闲时马上执行）</translation>
    </message>
    <message>
        <source>Now due %1.</source>
        <translation>现在到期时间为 %1。</translation>
    </message>
    <message>
        <source>Now due between %1 and %2.</source>
        <translation>现在到期时间在 %1 与 %2 之间。</translation>
    </message>
    <message>
        <source>New due time: %1</source>
        <translation>新的到期时间：%1</translation>
    </message>
    <message>
        <source>New due time: type a delay or a time.</source>
        <translation>新的到期时间：请输入延迟或时间。</translation>
    </message>
    <message>
        <source>Reschedule: %1</source>
        <translation>改期：%1</translation>
    </message>
    <message>
        <source>Reschedule this task of queue %1:</source>
        <translation>为队列 %1 的这个任务改期：</translation>
    </message>
    <message>
        <source>Reschedule these %1 of queue %2:</source>
        <translation>为队列 %2 的这 %1 改期：</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ScheduleClient</name>
    <message>
        <source>list the schedules</source>
        <translation>列出计划</translation>
    </message>
    <message>
        <source>add a schedule</source>
        <translation>添加计划</translation>
    </message>
    <message>
        <source>change a schedule</source>
        <translation>修改计划</translation>
    </message>
    <message>
        <source>pause a schedule</source>
        <translation>暂停计划</translation>
    </message>
    <message>
        <source>resume a schedule</source>
        <translation>恢复计划</translation>
    </message>
    <message>
        <source>delete a schedule</source>
        <translation>删除计划</translation>
    </message>
    <message>
        <source>run a schedule now</source>
        <translation>立即运行计划</translation>
    </message>
    <message>
        <source>backfill a schedule</source>
        <translation>补发计划</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ScheduleDialog</name>
    <message>
        <source>Edit schedule %1 of %2</source>
        <translation>编辑 %2 的计划 %1</translation>
    </message>
    <message>
        <source>New schedule of %1</source>
        <translation>%1 的新计划</translation>
    </message>
    <message>
        <source>letters, digits, . _ - (e.g. daily-report)</source>
        <translation>字母、数字、. _ -（例如 daily-report）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Cron expression, on a time zone&apos;s clock</source>
        <translation>Cron 表达式，按某个时区的时钟</translation>
    </message>
    <message>
        <source>Fixed interval (every)</source>
        <translation>固定间隔（every）</translation>
    </message>
    <message>
        <source>Fires</source>
        <translation>触发方式</translation>
    </message>
    <message>
        <source>minute hour day month weekday, e.g. 0 9 * * 1-5</source>
        <translation>分 时 日 月 星期，例如 0 9 * * 1-5</translation>
    </message>
    <message>
        <source>at least 1s, e.g. 30s, 15m, 1h</source>
        <translation>至少 1s，例如 30s、15m、1h</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>A tz database name; the cron&apos;s times are read on this wall clock</source>
        <translation>tz 数据库中的时区名；cron 的时间按该时区的本地时钟解读</translation>
    </message>
    <message>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <source>the payload of every task a fire makes</source>
        <translation>每次触发所生成任务的负载</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>After downtime, missed fires this close to now fire once each; older ones are skipped and counted (at most 7d)</source>
        <translation>停机之后，距现在不超过此时长的错过触发各补发一次；更早的跳过并计数（最多 7d）</translation>
    </message>
    <message>
        <source>Catch-up</source>
        <translation>补发窗口</translation>
    </message>
    <message>
        <source>the queue&apos;s</source>
        <translation>沿用队列设置</translation>
    </message>
    <message>
        <source>Max attempts</source>
        <translation>最大尝试次数</translation>
    </message>
    <message>
        <source>the queue&apos;s (or e.g. 5s,20s,30s or exp:1s:5m)</source>
        <translation>沿用队列设置（或例如 5s,20s,30s 或 exp:1s:5m）</translation>
    </message>
    <message>
        <source>Backoff</source>
        <translation>退避</translation>
    </message>
    <message>
        <source>Next fires</source>
        <translation>接下来的触发</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>A schedule keeps its name; delete it and add another to rename</source>
        <translation>计划的名称不可更改；如需改名，请删除后另行添加</translation>
    </message>
    <message>
        <source>every must be at least 1s</source>
        <translation>间隔至少为 1s</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>No preview: the rule above is refused.</source>
        <translation>无预览：上面的规则无效。</translation>
    </message>
    <message>
        <source>This rule never fires.</source>
        <translation>此规则永远不会触发。</translation>
    </message>
    <message>
        <source>Paused: these fire only after a resume (the next fire after it).</source>
        <translation>已暂停：恢复之后才会触发（从恢复后的下一次触发开始）。</translation>
    </message>
    <message>
        <source>Computed here from the rule; times in %1.</source>
        <translation>根据规则在本地计算；时间为 %1。</translation>
    </message>
    <message>
        <source>Allow: every fire makes its task</source>
        <translation>允许：每次触发都生成任务</translation>
    </message>
    <message>
        <source>Skip a fire while the previous fire&apos;s task is pending or active</source>
        <translation>上一次触发的任务仍在等待或运行时跳过本次触发</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>none (or e.g. 30s)</source>
        <translation>无（或如 30s）</translation>
    </message>
    <message>
        <source>Each fire&apos;s task is due up to this much after the fire, the same on every worker, so schedules on the same time do not all fall due at once</source>
        <translation>每次触发的任务最多在触发后这么久到期，各工作进程算出的时间相同，使同一时刻的众多计划不会同时到期</translation>
    </message>
    <message>
        <source>Jitter</source>
        <translation>抖动</translation>
    </message>
</context>
<context>
    <name>delayq::ui::SchedulesTab</name>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>A new schedule: a task pushed at each fire of a cron rule or interval</source>
        <translation>新计划：按定时规则或固定间隔，每次触发推送一个任务</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Next fire</source>
        <translation>下次触发</translation>
    </message>
    <message>
        <source>Last fire</source>
        <translation>上次触发</translation>
    </message>
    <message>
        <source>Fired</source>
        <translation>已触发</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>A plain sorted set has no schedules: only delayq queues do.</source>
        <translation>普通有序集合没有计划：只有 delayq 队列才有。</translation>
    </message>
    <message>
        <source>Open a queue to see its recurring schedules.</source>
        <translation>打开一个队列以查看其周期计划。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Not in a read-only session: %1</source>
        <translation>只读会话中不可用：%1</translation>
    </message>
    <message>
        <source>Select a schedule first</source>
        <translation>请先选择一个计划</translation>
    </message>
    <message>
        <source>Change the rule, payload or task settings</source>
        <translation>修改规则、负载或任务设置</translation>
    </message>
    <message>
        <source>Fire again from the next fire after now</source>
        <translation>从现在之后的下一次触发开始恢复触发</translation>
    </message>
    <message>
        <source>Make no tasks until resumed; the fires meanwhile are not made</source>
        <translation>恢复之前不生成任务；期间的触发不会补发</translation>
    </message>
    <message>
        <source>Delete the rule; the tasks it already made stay</source>
        <translation>删除规则；它已生成的任务保留</translation>
    </message>
    <message>
        <source>none</source>
        <comment>a paused schedule&apos;s next fire</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>never</source>
        <comment>a schedule that has not fired yet</comment>
        <translation>从未</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>active</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Pause schedule</source>
        <translation>暂停计划</translation>
    </message>
    <message>
        <source>Pause schedule &apos;%1&apos; of queue &apos;%2&apos;? It makes no tasks until it is resumed, and the fires meanwhile are not made later.</source>
        <translation>暂停队列“%2”的计划“%1”？恢复之前它不会生成任务，期间的触发之后也不会补发。</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Delete schedule</source>
        <translation>删除计划</translation>
    </message>
    <message>
        <source>Delete schedule &apos;%1&apos; of queue &apos;%2&apos;? The tasks it already made stay.</source>
        <translation>删除队列“%2”的计划“%1”？它已生成的任务会保留。</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; was not changed: %3</source>
        <translation>队列“%2”的计划“%1”未修改：%3</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; was changed by someone else after you opened it: nothing was saved. The list shows it as it is now; edit it again to change it.</source>
        <translation>队列“%2”的计划“%1”在你打开后已被他人修改：没有保存任何内容。列表显示的是它现在的样子；如需修改，请重新编辑。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; was already deleted.</source>
        <translation>队列“%2”的计划“%1”已被删除。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; added to queue &apos;%2&apos;.</source>
        <translation>计划“%1”已添加到队列“%2”。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; saved.</source>
        <translation>队列“%2”的计划“%1”已保存。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; paused.</source>
        <translation>队列“%2”的计划“%1”已暂停。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; resumed.</source>
        <translation>队列“%2”的计划“%1”已恢复。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; deleted from queue &apos;%2&apos;; the tasks it made stay.</source>
        <translation>计划“%1”已从队列“%2”删除；它生成的任务保留。</translation>
    </message>
    <message>
        <source>Run now</source>
        <translation>立即运行</translation>
    </message>
    <message>
        <source>Backfill…</source>
        <translation>补发…</translation>
    </message>
    <message>
        <source>Push one task now; the rule and its next fire stay</source>
        <translation>立即推送一个任务；规则及其下次触发保持不变</translation>
    </message>
    <message>
        <source>Make the rule&apos;s fires of a past window that the schedule did not make</source>
        <translation>补发过去某个时间窗口内计划未生成的规则触发</translation>
    </message>
    <message>
        <source>Server: %1</source>
        <translation>服务器：%1</translation>
    </message>
    <message>
        <source>Run schedule now</source>
        <translation>立即运行计划</translation>
    </message>
    <message>
        <source>Run schedule &apos;%1&apos; of queue &apos;%2&apos; now? One task is pushed at once, due now; the rule and its next fire stay as they are.</source>
        <translation>立即运行队列“%2”的计划“%1”？将立即推送一个任务，到期时间为现在；规则及其下次触发保持不变。</translation>
    </message>
    <message>
        <source>Run %1 now</source>
        <translation>立即运行 %1</translation>
    </message>
    <message>
        <source>Don&apos;t run</source>
        <translation>不运行</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos;.</source>
        <translation>队列“%2”的计划“%1”。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; on %3.</source>
        <translation>%3 上队列“%2”的计划“%1”。</translation>
    </message>
    <message>
        <source>Backfill schedule</source>
        <translation>补发计划</translation>
    </message>
    <message numerus="yes">
        <source>Make the fires of schedule &apos;%1&apos; of queue &apos;%2&apos; from %3 to %4 (%n fire(s))? Each is made as the rule&apos;s own fire would have made it; fires the schedule made already are not made again.</source>
        <translation>
            <numerusform>补发队列“%2”的计划“%1”从 %3 到 %4 的触发（%n 次）？每次触发都按规则本身触发时的方式生成；计划已生成过的触发不会重复生成。</numerusform>
        </translation>
    </message>
    <message>
        <source>Backfill %1</source>
        <translation>补发 %1</translation>
    </message>
    <message>
        <source>Don&apos;t backfill</source>
        <translation>不补发</translation>
    </message>
    <message>
        <source>, skips a fire while the last one runs</source>
        <translation>，上一次仍在运行时跳过触发</translation>
    </message>
    <message>
        <source>, jitter %1</source>
        <translation>，抖动 %1</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; ran now: task %3.</source>
        <translation>队列“%2”的计划“%1”已立即运行：任务 %3。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos;: that request had run already (task %3); nothing was made.</source>
        <translation>队列“%2”的计划“%1”：该请求已运行过（任务 %3）；未生成任何任务。</translation>
    </message>
    <message>
        <source>Schedule &apos;%1&apos; of queue &apos;%2&apos; backfilled: %3 of %4 fires made, %5 made before.</source>
        <translation>队列“%2”的计划“%1”已补发：%4 次触发中生成了 %3 次，%5 次此前已生成。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ServerView</name>
    <message>
        <source>Configuration checks (as delayq doctor makes them)</source>
        <translation>配置检查（与命令行的诊断相同）</translation>
    </message>
    <message>
        <source>Configuration checks could not run: %1</source>
        <translation>无法进行配置检查：%1</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Risk and fix</source>
        <translation>风险与修复</translation>
    </message>
    <message>
        <source>problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Replica of</source>
        <translation>复制自</translation>
    </message>
    <message>
        <source>Slots</source>
        <translation>槽</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Asking the server…</source>
        <translation>正在询问服务器…</translation>
    </message>
    <message>
        <source>Could not %1: %2</source>
        <translation>无法%1：%2</translation>
    </message>
    <message>
        <source>%1 is one server, not a Redis Cluster.</source>
        <translation>%1 是单台服务器，不是 Redis 集群。</translation>
    </message>
    <message>
        <source>master</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>replica</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>%1 (%2 slots)</source>
        <translation>%1（%2 个槽）</translation>
    </message>
    <message>
        <source>up</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>%1: a Redis Cluster of %2 masters</source>
        <translation>%1：包含 %2 个主节点的 Redis 集群</translation>
    </message>
    <message>
        <source>, %1 unreachable</source>
        <translation>，%1 个无法访问</translation>
    </message>
    <message>
        <source>Shard</source>
        <translation>分片</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Shards of %1 could not be read: %2</source>
        <translation>无法读取队列“%1”的分片：%2</translation>
    </message>
    <message>
        <source>Shards of %1</source>
        <translation>队列“%1”的分片</translation>
    </message>
    <message>
        <source>Moving tasks from %1 to %2 shards: %3 moved; looking at shard %4 (shards 0–%5), pass %6</source>
        <translation>正在把任务从 %1 个分片移到 %2 个分片：已移动 %3 个；正在查看分片 %4（分片 0–%5），第 %6 轮</translation>
    </message>
    <message>
        <source>retired</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
</context>
<context>
    <name>delayq::ui::SteppedRequests</name>
    <message>
        <source>find plain sorted sets</source>
        <translation>查找普通有序集合</translation>
    </message>
    <message>
        <source>search members</source>
        <translation>搜索成员</translation>
    </message>
    <message>
        <source>purge</source>
        <translation>清空队列</translation>
    </message>
    <message>
        <source>requeue dead tasks</source>
        <translation>重新入队死信任务</translation>
    </message>
    <message>
        <source>delete dead tasks</source>
        <translation>删除死信任务</translation>
    </message>
    <message>
        <source>count matching tasks</source>
        <translation>统计匹配的任务</translation>
    </message>
    <message>
        <source>search tasks</source>
        <translation>搜索任务</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskAction</name>
    <message>
        <source>push</source>
        <translation>推送</translation>
    </message>
    <message>
        <source>Pushed</source>
        <translation>推送</translation>
    </message>
    <message>
        <source>cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>reschedule</source>
        <translation>改期</translation>
    </message>
    <message>
        <source>Rescheduled</source>
        <translation>改期</translation>
    </message>
    <message>
        <source>requeue</source>
        <translation>重新入队</translation>
    </message>
    <message>
        <source>Requeued</source>
        <translation>重新入队</translation>
    </message>
    <message>
        <source>delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>purge</source>
        <translation>清空队列</translation>
    </message>
    <message>
        <source>Purged</source>
        <translation>已清空</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskActions</name>
    <message>
        <source>&amp;Push…</source>
        <translation>推送(&amp;P)…</translation>
    </message>
    <message>
        <source>Push tasks (Ctrl+N)</source>
        <translation>推送任务 (Ctrl+N)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel the selected pending tasks (Del)</source>
        <translation>取消所选的待处理任务 (Del)</translation>
    </message>
    <message>
        <source>&amp;Reschedule…</source>
        <translation>改期(&amp;R)…</translation>
    </message>
    <message>
        <source>Reschedule the selected pending tasks (Ctrl+R)</source>
        <translation>为所选的待处理任务改期 (Ctrl+R)</translation>
    </message>
    <message>
        <source>Re&amp;queue</source>
        <translation>重新入队(&amp;Q)</translation>
    </message>
    <message>
        <source>Put the selected dead tasks back in pending, due now</source>
        <translation>将所选的死信任务放回待处理，立即到期</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Delete the selected dead tasks for good</source>
        <translation>永久删除所选的死信任务</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>Refresh now (F5)</source>
        <translation>立即刷新 (F5)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Find a task by id or jump to a time (Ctrl+F)</source>
        <translation>按 ID 查找任务或跳转到某个时间 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Read-only: %1</source>
        <translation>只读：%1</translation>
    </message>
    <message>
        <source>Nothing to %1: select tasks first</source>
        <translation>没有可%1的任务：请先选择任务</translation>
    </message>
    <message>
        <source>%1 of the %2 selected rows are still loading and are left out</source>
        <translation>所选的 %2 行中有 %1 行仍在加载，已略过</translation>
    </message>
    <message>
        <source>due %1</source>
        <translation>到期 %1</translation>
    </message>
    <message>
        <source>died %1</source>
        <translation>死于 %1</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>以及另外 %1 个</translation>
    </message>
    <message>
        <source>cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel messages</source>
        <translation>取消消息</translation>
    </message>
    <message>
        <source>Cancel tasks</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>Remove %1 from %2? They will not be delivered.</source>
        <translation>从 %2 中移除 %1？它们将不会被投递。</translation>
    </message>
    <message>
        <source>1 message</source>
        <translation>1 条消息</translation>
    </message>
    <message>
        <source>%1 messages</source>
        <translation>%1 条消息</translation>
    </message>
    <message>
        <source>Cancel %1 of queue %2?

They are deleted and will not run. A task a worker has already started is left alone.</source>
        <translation>取消队列 %2 中的 %1？

它们将被删除且不会执行。已被工作进程开始执行的任务不受影响。</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>Cancel 1 message</source>
        <translation>取消 1 条消息</translation>
    </message>
    <message>
        <source>Cancel %1 messages</source>
        <translation>取消 %1 条消息</translation>
    </message>
    <message>
        <source>Cancel %1</source>
        <translation>取消 %1</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>reschedule</source>
        <translation>改期</translation>
    </message>
    <message>
        <source>requeue</source>
        <translation>重新入队</translation>
    </message>
    <message>
        <source>Requeue dead tasks</source>
        <translation>死信任务重新入队</translation>
    </message>
    <message>
        <source>Move %1 of queue %2 back to pending, due now?

Their attempts start again from 0: each gets the full number of tries again.</source>
        <translation>将队列 %2 中的 %1 移回待处理并立即到期？

它们的尝试次数从 0 重新开始：每个任务重新获得全部尝试次数。</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>Requeue %1</source>
        <translation>重新入队 %1</translation>
    </message>
    <message>
        <source>Leave dead</source>
        <translation>保持死信</translation>
    </message>
    <message>
        <source>delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete dead tasks</source>
        <translation>删除死信任务</translation>
    </message>
    <message>
        <source>Delete %1 of queue %2 for good? This cannot be undone.</source>
        <translation>永久删除队列 %2 中的 %1？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Run &amp;now</source>
        <translation>立即运行(&amp;N)</translation>
    </message>
    <message>
        <source>Make the selected pending tasks due now</source>
        <translation>让选中的待处理任务立即到期</translation>
    </message>
    <message>
        <source>Act on &amp;matching tasks…</source>
        <translation>对匹配的任务操作(&amp;M)…</translation>
    </message>
    <message>
        <source>Cancel, reschedule, requeue or delete every task a filter matches</source>
        <translation>取消、改期、重新入队或删除筛选条件匹配的每个任务</translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation>已复制%1</translation>
    </message>
    <message>
        <source>No bulk action applies to active tasks</source>
        <translation>执行中的任务不能批量操作</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run tasks now</source>
        <translation>立即运行任务</translation>
    </message>
    <message>
        <source>Make %1 of queue %2 due now? A worker takes them at once.</source>
        <translation>让队列 %2 中的 %1 立即到期？工作进程会马上取走它们。</translation>
    </message>
    <message>
        <source>Run %1 now</source>
        <translation>立即运行 %1</translation>
    </message>
    <message>
        <source>Keep their time</source>
        <translation>保留原时间</translation>
    </message>
    <message>
        <source>Remove %1 from %2? It will not be delivered.</source>
        <translation>从 %2 中移除 %1？它将不会被投递。</translation>
    </message>
    <message>
        <source>Cancel %1 of queue %2?

It is deleted and will not run, unless a worker has already started it: then it is left alone.</source>
        <translation>取消队列 %2 中的 %1？

它会被删除且不会执行，除非已有工作进程开始处理它：那样它将保持不变。</translation>
    </message>
    <message>
        <source>Make %1 of queue %2 due now? A worker takes it at once.</source>
        <translation>让队列 %2 中的 %1 立即到期？工作进程会马上取走它。</translation>
    </message>
    <message>
        <source>Move %1 of queue %2 back to pending, due now?

Its attempts start again from 0: it gets the full number of tries again.</source>
        <translation>将队列 %2 中的 %1 移回待处理并立即到期？

它的尝试次数从 0 重新开始：会重新获得全部尝试次数。</translation>
    </message>
    <message>
        <source>Nothing was done: the window shows queue %1 now, not %2</source>
        <translation>未执行任何操作：窗口现在显示的是队列 %1，而不是 %2</translation>
    </message>
    <message>
        <source>Nothing was done: task %1 left queue %2 (consumed, cancelled or moved) since it was shown</source>
        <translation>未执行任何操作：任务 %1 在显示之后已离开队列 %2（已被消费、取消或移动）</translation>
    </message>
    <message>
        <source>Nothing was done: task %1 of queue %2 is due %3 now, not %4 as shown</source>
        <translation>未执行任何操作：队列 %2 的任务 %1 现在于 %3 到期，而不是显示的 %4</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskClient</name>
    <message>
        <source>load tasks</source>
        <translation>加载任务</translation>
    </message>
    <message>
        <source>count tasks</source>
        <translation>统计任务</translation>
    </message>
    <message>
        <source>load the task</source>
        <translation>加载任务详情</translation>
    </message>
    <message>
        <source>find a time</source>
        <translation>查找时间</translation>
    </message>
    <message>
        <source>find a task</source>
        <translation>查找任务</translation>
    </message>
    <message>
        <source>push</source>
        <translation>推送</translation>
    </message>
    <message>
        <source>load the task&apos;s history</source>
        <translation>加载任务历史</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskClipboard</name>
    <message>
        <source>the id</source>
        <translation> ID</translation>
    </message>
    <message>
        <source>%1 ids</source>
        <translation> %1 个 ID</translation>
    </message>
    <message>
        <source>the task as JSON</source>
        <translation>任务的 JSON</translation>
    </message>
    <message>
        <source>the payload</source>
        <translation>负载</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskDetails</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>到期时间</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Backoff</source>
        <translation>退避</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Copy id</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <source>Copy payload</source>
        <translation>复制负载</translation>
    </message>
    <message>
        <source>Copy message</source>
        <translation>复制消息</translation>
    </message>
    <message>
        <source>Select a task to see its payload.</source>
        <translation>选择一个任务以查看其负载。</translation>
    </message>
    <message>
        <source>Lease until</source>
        <translation>租约到期</translation>
    </message>
    <message>
        <source>Died</source>
        <translation>死亡时间</translation>
    </message>
    <message>
        <source>broken</source>
        <translation>损坏</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>queue default</source>
        <translation>队列默认值</translation>
    </message>
    <message>
        <source>Message (%1 bytes; the first %2 shown, loading the rest…)</source>
        <translation>消息（%1 字节；显示前 %2 字节，正在加载其余部分…）</translation>
    </message>
    <message>
        <source>Payload (%1 bytes; the first %2 shown, loading the rest…)</source>
        <translation>负载（%1 字节；显示前 %2 字节，正在加载其余部分…）</translation>
    </message>
    <message numerus="yes">
        <source>Message (binary, %n byte(s))</source>
        <translation>
            <numerusform>消息（二进制，%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Payload (binary, %n byte(s))</source>
        <translation>
            <numerusform>负载（二进制，%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Message (JSON, %n byte(s))</source>
        <translation>
            <numerusform>消息（JSON，%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Message (text, %n byte(s))</source>
        <translation>
            <numerusform>消息（文本，%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Payload (JSON, %n byte(s))</source>
        <translation>
            <numerusform>负载（JSON，%n 字节）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Payload (text, %n byte(s))</source>
        <translation>
            <numerusform>负载（文本，%n 字节）</numerusform>
        </translation>
    </message>
    <message>
        <source>first %1 KiB shown</source>
        <translation>仅显示前 %1 KiB</translation>
    </message>
    <message>
        <source>long lines broken for display (↪ marks a break)</source>
        <translation>长行已折行显示（↪ 表示折行处）</translation>
    </message>
    <message>
        <source>; Copy payload copies it as stored</source>
        <translation>；“复制负载”按原样复制</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>Could not be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>Not recorded: the queue&apos;s Task history setting is off (Queue → Queue settings…).</source>
        <translation>未记录：该队列的“任务历史”设置已关闭（队列 → 队列设置…）。</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>结束于</translation>
    </message>
    <message>
        <source>finished — acked at %1</source>
        <translation>已结束 — %1 已确认</translation>
    </message>
    <message>
        <source>finished — cancelled at %1</source>
        <translation>已结束 — %1 已取消</translation>
    </message>
    <message>
        <source>finished at %1</source>
        <translation>%1 已结束</translation>
    </message>
    <message numerus="yes">
        <source>The task has left the queue: its payload is not kept, only its last %n event(s), above.</source>
        <translation>
            <numerusform>该任务已离开队列：负载未保留，只保留了上面的最后 %n 个事件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Fair order</source>
        <translation>公平顺序</translation>
    </message>
    <message>
        <source>priority %1</source>
        <translation>优先级 %1</translation>
    </message>
    <message>
        <source>priority %1, group %2</source>
        <translation>优先级 %1，分组 %2</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>%1 (not started by then, it never runs)</source>
        <translation>%1（届时未开始则永不运行）</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskMenu</name>
    <message>
        <source>Copy ids</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <source>Copy id</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <source>Copy payload</source>
        <translation>复制负载</translation>
    </message>
    <message>
        <source>Copy as JSON</source>
        <translation>复制为 JSON</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskModel</name>
    <message>
        <source>(broken: %1)</source>
        <translation>（损坏：%1）</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>到期时间</translation>
    </message>
    <message>
        <source>Lease until</source>
        <translation>租约到期</translation>
    </message>
    <message>
        <source>Died</source>
        <translation>死亡时间</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>负载</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskTable</name>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>row %1 is outside the table</source>
        <translation>第 %1 行超出表格范围</translation>
    </message>
    <message>
        <source>the table is empty</source>
        <translation>表格为空</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TaskTabs</name>
    <message>
        <source>Pending (%1)</source>
        <translation>待处理 (%1)</translation>
    </message>
    <message>
        <source>Active (%1)</source>
        <translation>执行中 (%1)</translation>
    </message>
    <message>
        <source>Dead (%1)</source>
        <translation>死信 (%1)</translation>
    </message>
    <message>
        <source>open a queue first</source>
        <translation>请先打开一个队列</translation>
    </message>
    <message>
        <source>that message is no longer in %1</source>
        <translation>该消息已不在 %1 中</translation>
    </message>
    <message>
        <source>no task with id %1 in queue %2</source>
        <translation>队列 %2 中没有 ID 为 %1 的任务</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死信</translation>
    </message>
    <message>
        <source>active</source>
        <translation>执行中</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待处理</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <source>now %1</source>
        <translation>现为%1</translation>
    </message>
    <message>
        <source>task %1 keeps moving in queue %2: nothing is selected; choose it again</source>
        <translation>任务 %1 在队列 %2 中不断移动：未选中任何任务；请重新选择</translation>
    </message>
    <message>
        <source>that message is no longer in %1: nothing is selected</source>
        <translation>该消息已不在 %1 中：未选中任何内容</translation>
    </message>
    <message>
        <source>task %1 is no longer in queue %2 (acked, cancelled or deleted since the search): nothing is selected</source>
        <translation>任务 %1 已不在队列 %2 中（搜索后已被确认、取消或删除）：未选中任何任务</translation>
    </message>
    <message>
        <source>task %1 is no longer %2: it is %3 now; nothing is selected</source>
        <translation>任务 %1 已不再是%2：现为%3；未选中任何任务</translation>
    </message>
    <message numerus="yes">
        <source>%n selected task(s), %1 among them, no longer selected: the list moved far from them (Find id selects one again)</source>
        <translation>
            <numerusform>%n 个选中的任务（其中包括 %1）不再选中：列表已移到离它们很远的位置（用“查找 ID”可再次选中）</numerusform>
        </translation>
    </message>
    <message>
        <source>Task %1 left the %2 tasks of %3 (consumed, cancelled or moved): it is no longer selected</source>
        <translation>任务 %1 已离开 %3 的%2任务（已被消费、取消或移动）：不再选中</translation>
    </message>
    <message>
        <source>%1 selected tasks left the %2 tasks of %3 (consumed, cancelled or moved), %4 among them: they are no longer selected</source>
        <translation>%1 个选中的任务已离开 %3 的%2任务（已被消费、取消或移动），其中包括 %4：不再选中</translation>
    </message>
    <message>
        <source>acked at %1</source>
        <translation>%1 已确认</translation>
    </message>
    <message>
        <source>cancelled at %1</source>
        <translation>%1 已取消</translation>
    </message>
    <message>
        <source>finished at %1</source>
        <translation>%1 已结束</translation>
    </message>
    <message numerus="yes">
        <source>task %1 has left queue %2 (%3): its %n kept event(s) are in the details pane; nothing is selected</source>
        <translation>
            <numerusform>任务 %1 已离开队列 %2（%3）：保留的 %n 个事件显示在详情面板中；未选中任何任务</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>delayq::ui::ThresholdsDialog</name>
    <message>
        <source>Thresholds for all queues</source>
        <translation>所有队列的阈值</translation>
    </message>
    <message>
        <source>Thresholds of %1</source>
        <translation>%1 的阈值</translation>
    </message>
    <message>
        <source>A queue&apos;s row is coloured when a figure is above its limit. Leave a field empty to turn that limit off.</source>
        <translation>某项数值超过其阈值时，队列所在行会着色。留空则关闭该项阈值。</translation>
    </message>
    <message>
        <source>Own thresholds for this queue (else those of all queues)</source>
        <translation>此队列使用自己的阈值（否则使用所有队列的阈值）</translation>
    </message>
    <message>
        <source>Oldest overdue above</source>
        <translation>最久逾期超过</translation>
    </message>
    <message>
        <source>Dead above</source>
        <translation>死信超过</translation>
    </message>
    <message>
        <source>Due now above</source>
        <translation>现已到期超过</translation>
    </message>
    <message>
        <source>Failed in the last hour above</source>
        <translation>近一小时失败超过</translation>
    </message>
    <message>
        <source>e.g. 1m, 30s; empty: off</source>
        <translation>例如 1m、30s；留空：关闭</translation>
    </message>
    <message>
        <source>a count; empty: off</source>
        <translation>数量；留空：关闭</translation>
    </message>
    <message>
        <source>a whole number from 0, or empty for no limit</source>
        <translation>从 0 起的整数，留空表示不设阈值</translation>
    </message>
</context>
<context>
    <name>delayq::ui::ThroughputChart</name>
    <message>
        <source>per minute</source>
        <translation>每分钟</translation>
    </message>
    <message>
        <source>acked</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>A plain sorted set keeps no per-minute counts of acked and failed messages: only delayq queues do.</source>
        <translation>普通有序集合不记录每分钟确认和失败的消息数：只有 delayq 队列才有。</translation>
    </message>
    <message>
        <source>Open a queue to see its acked and failed tasks per minute.</source>
        <translation>打开一个队列以查看每分钟确认和失败的任务数。</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TimelineChart</name>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Back to the oldest overdue task through the next 24 hours</source>
        <translation>恢复为从最早的逾期任务到未来 24 小时</translation>
    </message>
    <message>
        <source>Drag to pan, wheel to zoom, click a bar to scroll the table there</source>
        <translation>拖动以平移，滚轮缩放，点击柱条将表格滚动到该处</translation>
    </message>
    <message>
        <source>tasks</source>
        <translation>任务数</translation>
    </message>
    <message>
        <source>overdue</source>
        <translation>逾期</translation>
    </message>
    <message>
        <source>due</source>
        <translation>到期</translation>
    </message>
    <message>
        <source>Open a queue to see when its tasks are due.</source>
        <translation>打开一个队列以查看其任务何时到期。</translation>
    </message>
    <message>
        <source>due time (UTC)</source>
        <translation>到期时间 (UTC)</translation>
    </message>
    <message>
        <source>Timeline unavailable: %1</source>
        <translation>时间线不可用：%1</translation>
    </message>
    <message>
        <source>1 task due in this window, %1 overdue</source>
        <translation>此窗口内有 1 个任务到期，%1 个逾期</translation>
    </message>
    <message>
        <source>%1 tasks due in this window, %2 overdue</source>
        <translation>此窗口内有 %1 个任务到期，%2 个逾期</translation>
    </message>
    <message>
        <source>(%1 more overdue outside this window)</source>
        <translation>（窗口外另有 %1 个逾期）</translation>
    </message>
    <message>
        <source>bucket %1</source>
        <translation>每格 %1</translation>
    </message>
    <message>
        <source>HH:mm
MMM d</source>
        <comment>QDateTime format of the time axis</comment>
        <translation>HH:mm
M月d日</translation>
    </message>
    <message>
        <source>schedule fires</source>
        <translation>计划触发</translation>
    </message>
    <message>
        <source>schedule fires (the first %1)</source>
        <translation>计划触发（前 %1 次）</translation>
    </message>
    <message>
        <source>expected lateness</source>
        <translation>预计延迟</translation>
    </message>
    <message>
        <source>threshold %1</source>
        <translation>阈值 %1</translation>
    </message>
    <message>
        <source>Forecast unavailable: %1</source>
        <translation>无法预测：%1</translation>
    </message>
    <message>
        <source>Expected lateness of the tasks due at each time, served first due first at %1 tasks/s (%2), with the schedules&apos; coming fires</source>
        <translation>各时刻到期任务的预计延迟：按到期先后以每秒 %1 个任务（%2）处理，含计划任务即将触发的任务</translation>
    </message>
    <message>
        <source>stated</source>
        <translation>指定</translation>
    </message>
    <message>
        <source>its rate limit</source>
        <translation>速率限制</translation>
    </message>
    <message>
        <source>its cap</source>
        <translation>并发上限</translation>
    </message>
    <message>
        <source>measured from recent acks</source>
        <translation>由最近确认数测得</translation>
    </message>
    <message>
        <source>No lateness forecast: no acks in the last 15 minutes to measure a capacity from</source>
        <translation>无延迟预测：最近 15 分钟没有确认，无法测得处理能力</translation>
    </message>
    <message>
        <source>No lateness expected in the next %1</source>
        <translation>未来 %1 内预计无延迟</translation>
    </message>
    <message>
        <source>Peak %1 late at %2</source>
        <translation>%2 峰值延迟 %1</translation>
    </message>
    <message>
        <source>%1, within its %2 threshold</source>
        <translation>%1，在 %2 阈值之内</translation>
    </message>
    <message>
        <source>%1; %2× today&apos;s capacity keeps it under %3</source>
        <translation>%1；当前处理能力的 %2 倍可使其低于 %3</translation>
    </message>
    <message>
        <source>late (s)</source>
        <translation>延迟（秒）</translation>
    </message>
    <message>
        <source>late (min)</source>
        <translation>延迟（分钟）</translation>
    </message>
    <message>
        <source>late (h)</source>
        <translation>延迟（小时）</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TlsFields</name>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS (rediss://)</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA 文件</translation>
    </message>
    <message>
        <source>the system&apos;s trusted CAs when empty</source>
        <translation>留空则使用系统信任的 CA</translation>
    </message>
    <message>
        <source>CA directory</source>
        <translation>CA 目录</translation>
    </message>
    <message>
        <source>optional: a c_rehash&apos;ed directory</source>
        <translation>可选：经 c_rehash 处理的目录</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>客户端证书</translation>
    </message>
    <message>
        <source>for mutual TLS only</source>
        <translation>仅用于双向 TLS</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>客户端私钥</translation>
    </message>
    <message>
        <source>the certificate&apos;s private key (PEM)</source>
        <translation>证书的私钥（PEM）</translation>
    </message>
    <message>
        <source>if the key is encrypted; kept for this session only</source>
        <translation>私钥已加密时填写；仅在本次会话中保留</translation>
    </message>
    <message>
        <source>Key passphrase</source>
        <translation>私钥口令</translation>
    </message>
    <message>
        <source>the name to verify; the URL&apos;s host when empty</source>
        <translation>要验证的名称；留空则使用 URL 中的主机</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>服务器名称</translation>
    </message>
    <message>
        <source>Skip certificate checks (insecure: anyone in between can read and change the traffic)</source>
        <translation>跳过证书检查（不安全：中间的任何人都能读取并篡改通信内容）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.key);;All files (*)</source>
        <translation>PEM 文件 (*.pem *.crt *.key);;所有文件 (*)</translation>
    </message>
    <message>
        <source>a client certificate needs its private key</source>
        <translation>客户端证书需要对应的私钥</translation>
    </message>
    <message>
        <source>a private key needs its client certificate</source>
        <translation>私钥需要对应的客户端证书</translation>
    </message>
    <message>
        <source>there is no %1 at %2</source>
        <translation>%2 处没有%1</translation>
    </message>
    <message>
        <source>directory</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>%1 is not a directory</source>
        <translation>%1 不是目录</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <source>%1 cannot be read by this user</source>
        <translation>当前用户无法读取 %1</translation>
    </message>
</context>
<context>
    <name>delayq::ui::TransportFields</name>
    <message>
        <source>Single server</source>
        <translation>单台服务器</translation>
    </message>
    <message>
        <source>Sentinel group (redis+sentinel://)</source>
        <translation>哨兵组 (redis+sentinel://)</translation>
    </message>
    <message>
        <source>Redis Cluster (redis+cluster://)</source>
        <translation>Redis 集群 (redis+cluster://)</translation>
    </message>
    <message>
        <source>Through Sentinel the URL lists the sentinels and the master&apos;s name: redis+sentinel://s1:26379,s2:26379/mymaster/0. A cluster lists a few of its nodes: redis+cluster://n1:7001,n2:7002 (a redis:// URL to any node of a cluster works too).</source>
        <translation>通过哨兵连接时，URL 列出各哨兵和主节点名称：redis+sentinel://s1:26379,s2:26379/mymaster/0。集群则列出其中几个节点：redis+cluster://n1:7001,n2:7002（指向集群任一节点的 redis:// URL 也可以）。</translation>
    </message>
    <message>
        <source>only when the sentinels have a password of their own; this session only</source>
        <translation>仅当哨兵有自己的密码时填写；仅在本次会话中保留</translation>
    </message>
    <message>
        <source>Sentinel password</source>
        <translation>哨兵密码</translation>
    </message>
    <message>
        <source>&amp;Mode</source>
        <translation>模式(&amp;M)</translation>
    </message>
</context>
<context>
    <name>delayq::ui::WatchedServersView</name>
    <message>
        <source>Watched servers (read-only: File → Connect… to act on one of their queues)</source>
        <translation>监视的服务器（只读：要操作其中的队列，请用 文件 → 连接…）</translation>
    </message>
    <message>
        <source>%1: cannot be reached: %2</source>
        <translation>%1：无法连接：%2</translation>
    </message>
</context>
<context>
    <name>delayq::ui::WindowLayout</name>
    <message>
        <source>Queues</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Acked / failed per minute</source>
        <translation>每分钟确认 / 失败</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Tasks</source>
        <translation>任务(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Queue</source>
        <translation>队列(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Schedules</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>分组</translation>
    </message>
</context>
<context>
    <name>delayq::ui::WorkerDock</name>
    <message>
        <source>Embedded worker</source>
        <translation>内置工作进程</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>租约</translation>
    </message>
    <message>
        <source>Ack every task</source>
        <translation>确认每个任务</translation>
    </message>
    <message>
        <source>Fail some (retry / dead)</source>
        <translation>部分失败（重试 / 死信）</translation>
    </message>
    <message>
        <source>Never ack (leases expire)</source>
        <translation>从不确认（租约过期）</translation>
    </message>
    <message>
        <source>Handler</source>
        <translation>处理方式</translation>
    </message>
    <message>
        <source>Fail probability</source>
        <translation>失败概率</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Work time</source>
        <translation>处理耗时</translation>
    </message>
    <message>
        <source>optional: a Redis list</source>
        <translation>可选：一个 Redis 列表</translation>
    </message>
    <message>
        <source>LPUSH each popped message to this list, in the same script as the pop, for a consumer that reads the list</source>
        <translation>在弹出消息的同一脚本中将其 LPUSH 到此列表，供读取该列表的消费者使用</translation>
    </message>
    <message>
        <source>Forward to</source>
        <translation>转发到</translation>
    </message>
    <message>
        <source>optional: e.g. 30s; empty drops failed messages</source>
        <translation>可选：例如 30s；留空则丢弃失败的消息</translation>
    </message>
    <message>
        <source>Retry failed in</source>
        <translation>失败后重试间隔</translation>
    </message>
    <message>
        <source>Start worker</source>
        <translation>启动工作进程</translation>
    </message>
    <message>
        <source>Lateness: from a task&apos;s due time to the moment this worker started it. Tasks that were already overdue when the worker started count their whole wait.</source>
        <translation>延迟：从任务的到期时间到此工作进程开始处理它的时刻。工作进程启动时已逾期的任务计入其全部等待时间。</translation>
    </message>
    <message>
        <source>Outcomes of the tasks this worker runs appear here.</source>
        <translation>此工作进程所处理任务的结果会显示在这里。</translation>
    </message>
    <message>
        <source>Take every message</source>
        <translation>接收每条消息</translation>
    </message>
    <message>
        <source>Fail some (retry or drop)</source>
        <translation>部分失败（重试或丢弃）</translation>
    </message>
    <message>
        <source>Consumes: no queue open</source>
        <translation>消费：未打开队列</translation>
    </message>
    <message>
        <source>Pops due messages of plain key %1</source>
        <translation>弹出普通键 %1 中到期的消息</translation>
    </message>
    <message>
        <source>Consumes queue %1</source>
        <translation>消费队列 %1</translation>
    </message>
    <message>
        <source>Embedded worker — %1</source>
        <translation>内置工作进程 — %1</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Stop worker</source>
        <translation>停止工作进程</translation>
    </message>
    <message>
        <source>Read-only: %1 (a worker claims, acks and nacks tasks)</source>
        <translation>只读：%1（工作进程需要领取、确认和否认任务）</translation>
    </message>
    <message>
        <source>Open a queue first</source>
        <translation>请先打开一个队列</translation>
    </message>
    <message>
        <source>Pop due messages of %1 with the settings above, at most once</source>
        <translation>按上述设置弹出 %1 中到期的消息，至多一次</translation>
    </message>
    <message>
        <source>Consume queue %1 with the settings above</source>
        <translation>按上述设置消费队列 %1</translation>
    </message>
    <message>
        <source>cannot start: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <source>started %1 on plain key %2 with %3 thread(s), at most once</source>
        <translation>已在普通键 %2 上启动 %1，%3 个线程，至多一次</translation>
    </message>
    <message>
        <source>started %1 on queue %2 with %3 thread(s)</source>
        <translation>已在队列 %2 上启动 %1，%3 个线程</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>claimed %1  acked %2  failed %3
retried %4  dead %5  lease lost %6
in flight %7  lateness p50 %8  p99 %9  max %10%11</source>
        <translation>领取 %1  确认 %2  失败 %3
重试 %4  死信 %5  租约丢失 %6
处理中 %7  延迟 p50 %8  p99 %9  最大 %10%11</translation>
    </message>
    <message>
        <source>
DISCONNECTED, retrying</source>
        <translation>
已断开，正在重试</translation>
    </message>
    <message>
        <source>stopping the worker on %1, which is no longer open</source>
        <translation>正在停止 %1 上的工作进程，因为它已不再打开</translation>
    </message>
    <message>
        <source>plain key %1</source>
        <translation>普通键 %1</translation>
    </message>
    <message>
        <source>queue %1</source>
        <translation>队列 %1</translation>
    </message>
    <message>
        <source>stopped the worker on %1</source>
        <translation>已停止 %1 上的工作进程</translation>
    </message>
    <message>
        <source>Checking the target…</source>
        <translation>正在检查目标…</translation>
    </message>
    <message>
        <source>Type where to deliver the tasks first</source>
        <translation>请先填写任务的投递目标</translation>
    </message>
    <message>
        <source>delivering to %1</source>
        <translation>投递到 %1</translation>
    </message>
    <message>
        <source>checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>not started: read-only: %1</source>
        <translation>未启动：只读：%1</translation>
    </message>
    <message>
        <source>Deliver to a target</source>
        <translation>投递到目标</translation>
    </message>
    <message>
        <source>Deliver to</source>
        <translation>投递到</translation>
    </message>
</context>
<context>
    <name>delayq::ui::WorkerEventLog</name>
    <message>
        <source>acked</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>retried</source>
        <translation>已重试</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>转入死信</translation>
    </message>
    <message>
        <source>lease_lost</source>
        <translation>租约丢失</translation>
    </message>
    <message>
        <source>abandoned</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>已丢弃</translation>
    </message>
</context>
<context>
    <name>delayq::ui::WorkersView</name>
    <message>
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Worker</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>进程号</translation>
    </message>
    <message>
        <source>Handler</source>
        <translation>处理方式</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>最近心跳</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>Acked</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Lateness p99</source>
        <translation>延迟 p99</translation>
    </message>
    <message>
        <source>Show held tasks</source>
        <translation>显示持有的任务</translation>
    </message>
    <message>
        <source>%1 (plain)</source>
        <translation>%1（普通键）</translation>
    </message>
    <message>
        <source>Forwards the plain key %1: at least once</source>
        <translation>转发普通键 %1：至少一次</translation>
    </message>
    <message>
        <source>Pops the plain key %1: at most once</source>
        <translation>弹出普通键 %1：至多一次</translation>
    </message>
    <message>
        <source>Open the worker&apos;s queue on its Active tab, found by the worker&apos;s name</source>
        <translation>打开该工作进程所在队列的“执行中”标签页，按工作进程名查找</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Asking the server…</source>
        <translation>正在询问服务器…</translation>
    </message>
    <message>
        <source>Could not %1: %2</source>
        <translation>无法%1：%2</translation>
    </message>
    <message>
        <source>No worker has a heartbeat on any queue.</source>
        <translation>没有任何队列有工作进程的心跳。</translation>
    </message>
    <message>
        <source>stalled</source>
        <translation>已停滞</translation>
    </message>
    <message>
        <source>live</source>
        <translation>在线</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已离线</translation>
    </message>
    <message>
        <source>now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1 前</translation>
    </message>
    <message>
        <source>Live: %1 · gone: %2 · queues: %3</source>
        <translation>在线：%1 · 已离线：%2 · 队列：%3</translation>
    </message>
    <message>
        <source> · stalled: %1 (live, holding tasks, nothing acked for 5 min)</source>
        <translation> · 已停滞：%1（在线、持有任务、5 分钟内未确认任何任务）</translation>
    </message>
</context>
<context>
    <name>delayq::ui::WriteActions</name>
    <message>
        <source>Server: %1</source>
        <translation>服务器：%1</translation>
    </message>
</context>
</TS>
