"""Jobs: the work handed to RQ workers and what guards it. Owed tasks and their watchdog
(`tasks`), the queues and their fair lanes (`queues`), admission and think budgets
(`admission`), advice on demand (`advice`), bot-vs-bot matches (`matches`) and the queues'
status (`status`).
"""
